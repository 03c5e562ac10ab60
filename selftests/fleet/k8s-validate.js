// SPDX-License-Identifier: GPL-2.0
// k8s-validate.js MODULES_DIR [FILE.json] - validate Kubernetes objects
// (a JSON array, from FILE or standard input) against the schemas of the
// npm packages kubernetes-models and @kubernetes-models/prometheus-operator
// installed under MODULES_DIR/node_modules. One line per object:
// "valid KIND/NAME" or "invalid KIND/NAME: WHY"; exit 1 when one is not.
//
// Two checks per object of a kind the packages model:
//  - the schema's own validate(): types, formats, required fields, enums;
//  - unknown fields: the packages' schemas allow any extra property, so
//    a misspelled field (spec.template.spec.containres) would pass. Each
//    object is walked along the field lists of the packages' TypeScript
//    interfaces (the .d.ts beside each model), and a key no interface
//    names is an error. Anonymous inline types and type aliases are not
//    followed: below them anything goes.
// A kind no package models (KMM's Module) gets apiVersion, kind,
// metadata.name and spec checked for presence only.
//
// k8s-validate.js MODULES_DIR --self-test: a minimal DaemonSet is
// accepted and the same with spec.template.spec.containres is rejected.
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');

const modules = path.resolve(process.argv[2] || '.', 'node_modules');

// the .js model of apiVersion/kind in the packages, or null
function modelFile(apiVersion, kind) {
	const gv = apiVersion.includes('/') ? apiVersion : apiVersion;
	const tries = [
		path.join(modules, 'kubernetes-models', gv, kind + '.js'),
		path.join(modules, '@kubernetes-models/prometheus-operator', gv, kind + '.js'),
	];
	return tries.find((f) => fs.existsSync(f)) || null;
}

// The first interface declared in a .d.ts: its fields (name -> type text)
// and its imports (type name -> .d.ts path). Cached per file.
const parsed = new Map();
function parseDts(file) {
	if (parsed.has(file))
		return parsed.get(file);
	const lines = fs.readFileSync(file, 'utf8').split('\n');
	const imports = new Map();
	const fields = new Map();
	let i = 0;
	for (const l of lines) {
		const m = l.match(/^import \{ (\w+) \} from "([^"]+)";/);
		if (!m)
			continue;
		let spec = m[2];
		if (spec.startsWith('.'))
			spec = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.d.ts'));
		else
			spec = path.join(modules, spec + '.d.ts');
		imports.set(m[1], spec);
	}
	while (i < lines.length && !/^export interface I\w+.*\{$/.test(lines[i]))
		i++;
	for (i++; i < lines.length && lines[i] !== '}'; i++) {
		const m = lines[i].match(/^ {4}"([^"]+)"\??: (.*?);?$/);
		if (!m)
			continue;
		let type = m[2];
		// a map: { [key: string]: T; } over the next lines
		if (type === '{') {
			const k = lines[i + 1] && lines[i + 1].match(/^ {8}\[key: string\]: (\w+);$/);
			type = k && lines[i + 2] === '    };' ? 'map:' + k[1] : 'any';
		}
		fields.set(m[1], type);
	}
	const r = { fields, imports };
	parsed.set(file, r);
	return r;
}

// Unknown fields of @value, described by type text @type of @file.
function unknownFields(value, type, file, where, out) {
	if (value === null || typeof value !== 'object')
		return;
	let m;
	if ((m = type.match(/^Array<(\w+)>$/))) {
		if (Array.isArray(value))
			value.forEach((v, n) => unknownFields(v, m[1], file, `${where}[${n}]`, out));
		return;
	}
	if ((m = type.match(/^map:(\w+)$/))) {
		for (const [k, v] of Object.entries(value))
			unknownFields(v, m[1], file, `${where}.${k}`, out);
		return;
	}
	const target = parseDts(file).imports.get(type);
	if (!target || !fs.existsSync(target) || Array.isArray(value))
		return;		// a primitive, an alias, an inline type: not followed
	objectFields(value, target, where, out);
}

function objectFields(value, file, where, out) {
	const { fields } = parseDts(file);
	if (!fields.size)
		return;		// a type alias (Quantity, IntOrString)
	for (const [k, v] of Object.entries(value)) {
		if (!fields.has(k)) {
			out.push(`${where ? where + '.' : ''}${k}: unknown field`);
			continue;
		}
		unknownFields(v, fields.get(k), file, `${where ? where + '.' : ''}${k}`, out);
	}
}

async function check(obj) {
	const name = `${obj.kind}/${obj.metadata && obj.metadata.name}`;
	const problems = [];
	const file = obj.apiVersion && obj.kind ? modelFile(obj.apiVersion, obj.kind) : null;
	if (file) {
		const mod = await import(pathToFileURL(file).href);
		try {
			new mod[obj.kind](obj).validate();
		} catch (e) {
			problems.push(e.message);
		}
		objectFields(obj, file.replace(/\.js$/, '.d.ts'), '', problems);
	} else {
		for (const f of ['apiVersion', 'kind', 'metadata', 'spec'])
			if (!obj[f] || (typeof obj[f] === 'object' && !Object.keys(obj[f]).length))
				problems.push(`${f}: missing (a kind no schema package models)`);
		if (obj.metadata && !obj.metadata.name)
			problems.push('metadata.name: missing');
	}
	return { name, problems, modelled: !!file };
}

async function selfTest() {
	const good = {
		apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'good' },
		spec: {
			selector: { matchLabels: { app: 'x' } },
			template: {
				metadata: { labels: { app: 'x' } },
				spec: { containers: [{ name: 'c', image: 'i' }] },
			},
		},
	};
	const bad = JSON.parse(JSON.stringify(good));
	bad.metadata.name = 'misspelled';
	bad.spec.template.spec.containres = bad.spec.template.spec.containers;
	const g = await check(good), b = await check(bad);
	console.log(g.problems.length ? `invalid ${g.name}: ${g.problems.join('; ')}` : `valid ${g.name}`);
	console.log(b.problems.length ? `rejected ${b.name}: ${b.problems.join('; ')}` : `accepted ${b.name}`);
	return !g.problems.length && b.problems.some((p) => /containres: unknown field/.test(p));
}

(async () => {
	if (!fs.existsSync(path.join(modules, 'kubernetes-models'))) {
		console.error(`k8s-validate: no kubernetes-models under ${modules}`);
		process.exit(2);
	}
	if (process.argv[3] === '--self-test')
		process.exit((await selfTest()) ? 0 : 1);
	const text = fs.readFileSync(process.argv[3] || 0, 'utf8');
	let failed = 0;
	for (const obj of JSON.parse(text)) {
		const r = await check(obj);
		const how = r.modelled ? '' : ' (presence only)';
		if (r.problems.length) {
			failed++;
			console.log(`invalid ${r.name}: ${r.problems.join('; ')}`);
		} else {
			console.log(`valid ${r.name}${how}`);
		}
	}
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.error(`k8s-validate: ${e.stack || e}`);
	process.exit(2);
});
