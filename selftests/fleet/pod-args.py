#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# pod-args.py RENDERED.yaml PORT CURVES [--probe]: the "podman run" options
# and arguments (one a line) that run the memdiag-exporter DaemonSet's
# container of a rendered overlay as the kubelet would: its user,
# capabilities, read-only root, no privilege escalation, host network and
# PIDs or its own, read-only host mounts, memory and CPU limits, command and
# args. The downward API's $(HOST_IP) and $(POD_IP) become 127.0.0.1 and
# the port PORT; the DirectoryOrCreate volume (the curves) is the empty
# directory CURVES, as the kubelet makes one; a hostPath of type Directory
# missing on this host is left out, with a line on stderr. --probe: run
# "export --probe" where the overlay runs "export" (no module here).
# Anything in the pod spec this cannot map is an error, not skipped.
import json
import os
import re
import sys

import yaml

rendered, port, curves = sys.argv[1:4]
probe = "--probe" in sys.argv[4:]
ds = [d for d in yaml.safe_load_all(open(rendered))
      if d and d["kind"] == "DaemonSet" and d["metadata"]["name"] == "memdiag-exporter"]
if len(ds) != 1:
    sys.exit(f"pod-args: {len(ds)} DaemonSet memdiag-exporter")
pod = ds[0]["spec"]["template"]["spec"]
(c,) = pod["containers"]
sc = c.get("securityContext", {})
out = []

if sc.get("privileged"):
    sys.exit("pod-args: privileged")
out += ["--user", f"{sc.get('runAsUser', 0)}:{sc.get('runAsGroup', 0)}"]
caps = sc.get("capabilities", {})
for cap in caps.get("drop", []):
    out += ["--cap-drop", cap if cap == "ALL" else "CAP_" + cap]
for cap in caps.get("add", []):
    out += ["--cap-add", "CAP_" + cap]
if sc.get("readOnlyRootFilesystem"):
    # podman's --read-only adds writable tmpfs mounts the kubelet does not
    out += ["--read-only", "--read-only-tmpfs=false"]
if sc.get("allowPrivilegeEscalation") is False:
    out += ["--security-opt", "no-new-privileges"]
seccomp = pod.get("securityContext", {}).get("seccompProfile", {}).get("type")
if seccomp != "RuntimeDefault":
    sys.exit(f"pod-args: seccompProfile {seccomp!r}")
# the kubelet's pod without hostNetwork has a network namespace of its
# own; "none" is one with only the loopback device
out += ["--network", "host" if pod.get("hostNetwork") else "none"]
if pod.get("hostPID"):
    out += ["--pid", "host"]

vols = {v["name"]: v for v in pod.get("volumes", [])}
for m in c.get("volumeMounts", []):
    hp = vols[m["name"]].get("hostPath")
    if hp is None:
        sys.exit(f"pod-args: volume {m['name']} is not a hostPath")
    src = hp["path"]
    if hp.get("type") == "DirectoryOrCreate":
        src = curves
    elif hp.get("type") == "Directory" and not os.path.isdir(src):
        print(f"pod-args: no {src} on this host: its mount left out", file=sys.stderr)
        continue
    opts = ["ro" if m.get("readOnly") else "rw"]
    if m.get("mountPropagation") == "HostToContainer":
        opts.append("rslave")
    out += ["-v", f"{src}:{m['mountPath']}:{','.join(opts)}"]

lim = c.get("resources", {}).get("limits", {})
units = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
if "memory" in lim:
    n, u = re.fullmatch(r"(\d+)(Ki|Mi|Gi)", lim["memory"]).groups()
    out += ["--memory", str(int(n) * units[u])]
if "cpu" in lim:
    cpu = lim["cpu"]
    out += ["--cpus", str(int(cpu[:-1]) / 1000 if cpu.endswith("m") else float(cpu))]

# Kubernetes' command replaces the image's entrypoint, its args the command
if "command" in c:
    out += ["--entrypoint", json.dumps(c["command"])]
out.append(c["image"])
args = [re.sub(r"\$\((HOST_IP|POD_IP)\):9473", f"127.0.0.1:{port}", a) for a in c.get("args", [])]
if probe and "--probe" not in args:
    args.insert(args.index("export") + 1, "--probe")
out += args
print("\n".join(out))
