// SPDX-License-Identifier: MIT
// turndown (with the GFM plugin, for tables) on the same page as
// `web_bench --convert`: median ms of N runs on stdout, markdown on stderr.
// Usage: node convert.mjs FILE N
import { readFileSync } from 'node:fs';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

const [file, runs = '5'] = process.argv.slice(2);
const html = readFileSync(file, 'utf8');
const times = [];
let markdown = '';
for (let i = 0; i < Number(runs); i++) {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.use(gfm);
  service.remove(['script', 'style', 'nav', 'footer', 'head']);
  const t0 = process.hrtime.bigint();
  markdown = service.turndown(html);
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(2));
process.stderr.write(markdown);
