import { readFileSync } from 'node:fs';
const anon = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status','utf8'))[1]) / 1024;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status','utf8'))[1]) / 1024;
const steps = process.argv.slice(2);
let lastA = anon(), lastH = process.memoryUsage().heapUsed/1048576, lastR = rss();
for (const s of steps) {
  await import(s.startsWith('./') ? new URL(s, 'file:///work/wt-daemon/').href : s);
  global.gc?.();
  const a = anon(), h = process.memoryUsage().heapUsed/1048576, r = rss();
  console.log(s.padEnd(50), 'rss', r.toFixed(1), '+', (r-lastR).toFixed(1), 'anon +', (a - lastA).toFixed(1), 'heap +', (h-lastH).toFixed(1));
  lastA = a; lastH = h; lastR = r;
}
