#!/usr/bin/env node
// Prints the gzipped JS + CSS a route loads: the entry chunk, its static imports, and the page's lazy
// chunk with its static imports. Usage: node scripts/size-report.mjs [page-src ...]
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'));
const pages = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['src/pages/auth/login/index.tsx', 'src/layouts/BasicLayout.tsx', 'src/pages/reports/dashboard/index.tsx'];

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

function size(files) {
  let raw = 0;
  let gz = 0;
  for (const file of files) {
    const buf = readFileSync(resolve(dist, file));
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  return { raw, gz };
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let loaded = closure([entry]);
for (const page of pages) {
  if (!manifest[page]) {
    console.log(`${page}: not in manifest`);
    continue;
  }
  const keys = closure([entry, page]);
  const files = new Set();
  for (const k of keys) {
    files.add(manifest[k].file);
    for (const css of manifest[k].css ?? []) files.add(css);
  }
  const { raw, gz } = size(files);
  console.log(`size: ${page} (with entry) ${kb(raw)} raw, ${kb(gz)} gzip, ${files.size} files`);
  loaded = new Set([...loaded, ...keys]);
}
