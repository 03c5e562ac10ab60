#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kubernetes.sh - the manifests of dist/kubernetes, offline: every overlay
# renders with kubectl kustomize; every rendered object validates against
# the schemas of the npm packages kubernetes-models and
# @kubernetes-models/prometheus-operator, unknown fields included
# (k8s-validate.js; KMM's Module, which no package models, for presence
# of its parts), and the validator rejects a misspelled field; the
# exporter holds its privilege rules (base and kmm, node: the node's
# network and PIDs, exactly PERFMON and SYS_ADMIN; vm: nothing); the image
# is dist/kubernetes/image.env's; the generated PrometheusRule and
# dashboard ConfigMap are gen-rules.sh's output and carry their sources
# unchanged. The npm packages are installed once, pinned, under
# ${XDG_CACHE_HOME:-~/.cache}/memdiag/npm; after that nothing is fetched.
# TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/memdiag/lib.sh"
k8s=$top/dist/kubernetes
for t in kubectl node npm python3; do
	command -v "$t" > /dev/null ||
		{ echo "kubernetes: $t missing" >&2; exit 1; }
done

# the packages, exact versions, the ones they pull pinned by overrides
models=5.1.0 prom=6.0.0
npmdir=${XDG_CACHE_HOME:-$HOME/.cache}/memdiag/npm/kubernetes-models-$models-prometheus-operator-$prom
if [ ! -e "$npmdir/node_modules/.memdiag-complete" ]; then
	rm -rf "$npmdir"
	mkdir -p "$npmdir"
	cat > "$npmdir/package.json" <<-JSON
	{
	  "name": "memdiag-k8s-validate",
	  "private": true,
	  "dependencies": {
	    "kubernetes-models": "$models",
	    "@kubernetes-models/prometheus-operator": "$prom"
	  },
	  "overrides": {
	    "@kubernetes-models/apimachinery": "3.0.2",
	    "@kubernetes-models/base": "6.0.1",
	    "@kubernetes-models/validate": "5.0.2",
	    "ajv": "8.20.0"
	  }
	}
	JSON
	echo "# kubernetes: installing kubernetes-models@$models and @kubernetes-models/prometheus-operator@$prom into $npmdir"
	if ! out=$(cd "$npmdir" && npm install --no-audit --no-fund --loglevel=error 2>&1); then
		echo "kubernetes: npm install failed: is the npm registry reachable? (needed once, then cached in $npmdir)" >&2
		printf '%s\n' "$out" | tail -5 >&2
		rm -rf "$npmdir"
		exit 1
	fi
	touch "$npmdir/node_modules/.memdiag-complete"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check "the validator accepts a DaemonSet and rejects spec.template.spec.containres" \
	node "$top/selftests/fleet/k8s-validate.js" "$npmdir" --self-test
check "base/prometheusrule.yaml and base/grafana-dashboard.yaml are gen-rules.sh's output" \
	"$k8s/gen-rules.sh" --check

overlays=(node kmm vm)
for o in "${overlays[@]}"; do
	if kubectl kustomize "$k8s/overlays/$o" > "$work/$o.yaml" 2> "$work/$o.err" &&
	   python3 -c 'import json, sys, yaml
json.dump([d for d in yaml.safe_load_all(open(sys.argv[1])) if d], open(sys.argv[2], "w"))' \
		"$work/$o.yaml" "$work/$o.json" 2>> "$work/$o.err"; then
		ok "overlays/$o renders"
	else
		not_ok "overlays/$o renders" "$(cat "$work/$o.err")"
		continue
	fi
	check "overlays/$o: every object validates against its schema" \
		node "$top/selftests/fleet/k8s-validate.js" "$npmdir" "$work/$o.json"
	# the rules each rendered overlay holds, one line per problem
	no_problems "overlays/$o: privileges, resources, image and generated objects" \
		"$(python3 - "$o" "$work/$o.json" "$k8s" "$top" <<-'PY'
	import json, sys
	overlay, rendered, k8s, top = sys.argv[1:]
	objs = json.load(open(rendered))
	bad = []
	def one(kind, name=None):
	    found = [o for o in objs if o["kind"] == kind and
	             (name is None or o["metadata"]["name"] == name)]
	    if len(found) != 1:
	        bad.append(f"{len(found)} {kind} {name or ''}, want 1")
	        return {}
	    return found[0]
	def want(what, got, expect):
	    if got != expect:
	        bad.append(f"{what}: {got!r}, want {expect!r}")

	ns = one("Namespace", "memdiag")
	want("namespace's pod-security.kubernetes.io/enforce",
	     ns.get("metadata", {}).get("labels", {}).get("pod-security.kubernetes.io/enforce"),
	     "privileged")
	for o in objs:
	    if o["kind"] != "Namespace":
	        want(f"{o['kind']}/{o['metadata']['name']} namespace",
	             o["metadata"].get("namespace"), "memdiag")
	ds = one("DaemonSet", "memdiag-exporter")
	pod = ds.get("spec", {}).get("template", {}).get("spec", {})
	cs = pod.get("containers", [])
	want("containers", len(cs), 1)
	c = cs[0] if cs else {}
	sc = c.get("securityContext", {})
	caps = sc.get("capabilities", {})
	probe = overlay == "vm"
	want("hostNetwork", pod.get("hostNetwork", False), not probe)
	want("hostPID", pod.get("hostPID", False), not probe)
	want("capabilities.drop", caps.get("drop"), ["ALL"])
	want("capabilities.add", sorted(caps.get("add", [])),
	     [] if probe else ["PERFMON", "SYS_ADMIN"])
	want("privileged", sc.get("privileged"), False)
	want("allowPrivilegeEscalation", sc.get("allowPrivilegeEscalation"), False)
	want("readOnlyRootFilesystem", sc.get("readOnlyRootFilesystem"), True)
	if probe:
	    want("runAsNonRoot", sc.get("runAsNonRoot"), True)
	    want("args", c.get("args", [])[:2], ["export", "--probe"])
	else:
	    want("runAsUser (no ambient capabilities: uid 0)", sc.get("runAsUser"), 0)
	    want("args[0]", c.get("args", [None])[0], "export")
	    if "--probe" in c.get("args", []):
	        bad.append("--probe outside the vm overlay")
	want("priorityClassName", pod.get("priorityClassName"), "system-node-critical")
	want("tolerations", pod.get("tolerations"), [{"operator": "Exists"}])
	us = ds.get("spec", {}).get("updateStrategy", {})
	want("updateStrategy.type", us.get("type"), "RollingUpdate")
	if "maxUnavailable" not in us.get("rollingUpdate", {}):
	    bad.append("updateStrategy.rollingUpdate.maxUnavailable missing")
	for part in ("requests", "limits"):
	    for r in ("cpu", "memory"):
	        if r not in c.get("resources", {}).get(part, {}):
	            bad.append(f"resources.{part}.{r} missing")
	rp = c.get("readinessProbe", {}).get("httpGet", {})
	want("readinessProbe path", rp.get("path"), "/metrics")
	ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
	want("metrics port", ports.get("metrics"), 9473)
	if rp.get("port") not in ("metrics", 9473):
	    bad.append(f"readinessProbe port {rp.get('port')!r}")
	# every host path read-only
	vols = {v["name"]: v for v in pod.get("volumes", [])}
	for m in c.get("volumeMounts", []):
	    if "hostPath" in vols.get(m["name"], {}) and not m.get("readOnly"):
	        bad.append(f"hostPath mount {m['mountPath']} not read-only")
	mounts = {m["mountPath"]: vols.get(m["name"], {}).get("hostPath", {}).get("path")
	          for m in c.get("volumeMounts", [])}
	for p in ("/sys/fs/cgroup", "/sys/fs/resctrl"):
	    want(f"host {p} mounted at {p}", mounts.get(p), None if probe else p)
	# the image: image.env's MEMDIAG_IMAGE
	env = dict(l.strip().split("=", 1) for l in open(f"{k8s}/image.env")
	           if "=" in l and not l.startswith("#"))
	want("image", c.get("image"), env.get("MEMDIAG_IMAGE"))
	sel = pod.get("nodeSelector", {})
	if overlay == "kmm":
	    want("nodeSelector", sel, {"kmm.node.kubernetes.io/memdiag.memdiag.ready": ""})
	    mod = one("Module", "memdiag")
	    ctr = mod.get("spec", {}).get("moduleLoader", {}).get("container", {})
	    want("Module modprobe.moduleName", ctr.get("modprobe", {}).get("moduleName"), "memdiag")
	    kms = ctr.get("kernelMappings", [{}])
	    want("Module kernelMappings[0].regexp", kms[0].get("regexp"), "^.+$")
	    want("Module containerImage",
	         kms[0].get("containerImage"),
	         env.get("MEMDIAG_KMOD_IMAGE", "") + ":${KERNEL_FULL_VERSION}")
	    cm = kms[0].get("build", {}).get("dockerfileConfigMap", {}).get("name")
	    dock = one("ConfigMap", cm)
	    if "dockerfile" not in dock.get("data", {}):
	        bad.append(f"ConfigMap {cm} has no dockerfile key")
	    sign = kms[0].get("sign", {})
	    for s in ("keySecret", "certSecret"):
	        if not sign.get(s, {}).get("name"):
	            bad.append(f"Module sign.{s} missing")
	elif sel:
	    bad.append(f"nodeSelector {sel} outside the kmm overlay")
	# the generated objects carry their sources unchanged
	import yaml
	rule = one("PrometheusRule", "memdiag")
	# kustomize (v5.5) writes a folded expr with more-indented lines back
	# with one more blank line: PromQL does not see whitespace, so the
	# rendered rules are compared with every run of it as one space (the
	# committed file itself is compared exactly by gen-rules.sh --check)
	import re
	def squeeze(x):
	    if isinstance(x, dict):
	        return {k: squeeze(v) for k, v in x.items()}
	    if isinstance(x, list):
	        return [squeeze(v) for v in x]
	    return re.sub(r"\s+", " ", x).strip() if isinstance(x, str) else x
	src = yaml.safe_load(open(f"{top}/dist/prometheus/memdiag-rules.yml"))
	if squeeze(rule.get("spec")) != squeeze(src):
	    bad.append("PrometheusRule spec is not dist/prometheus/memdiag-rules.yml")
	dash = one("ConfigMap", "memdiag-grafana-dashboard")
	want("dashboard ConfigMap data is the dashboard",
	     dash.get("data", {}).get("memdiag-dashboard.json"),
	     open(f"{top}/dist/grafana/memdiag-dashboard.json").read())
	print("\n".join(bad))
	PY
	)"
done

# the plain Prometheus scrape config, where promtool is installed
if command -v promtool > /dev/null; then
	python3 -c 'import json, sys
cm = [o for o in json.load(open(sys.argv[1])) if o["metadata"]["name"] == "memdiag-prometheus-scrape"][0]
open(sys.argv[2], "w").write(cm["data"]["prometheus.yml"])' "$work/node.json" "$work/prometheus.yml"
	name="the scrape config fragment passes promtool check config"
	if out=$(promtool check config --syntax-only "$work/prometheus.yml" 2>&1); then
		ok "$name"
	elif grep -q 'field kubernetes_sd_configs not found' <<< "$out"; then
		# Debian builds Prometheus without Kubernetes service discovery
		skip "$name" "this promtool has no kubernetes_sd_configs"
	else
		not_ok "$name" "$out"
	fi
else
	skip "the scrape config fragment passes promtool check config" "no promtool"
fi
tap_end
