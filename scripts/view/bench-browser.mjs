// Times the `gamewire view` page in headless chromium (playwright-core from
// tests/peers/view/node_modules) on one big file, as a user waits for it:
//
//   node scripts/view/bench-browser.mjs GAMEWIRE FILE [RUNS] [MANY]
//
// - open: from the click on the file in the list to the tree's first level on screen
//   (the first run, in the fresh server process, reads the file and indexes its view;
//   later runs reload the page, and the server, which keeps a file open, answers from
//   its index);
// - expand: from ArrowRight on a list of 10,000 items (pointer MANY, /0/many by default,
//   as scripts/view/bench.py makes) to its first page of children on screen;
// - more: from Enter on "Show 200 more" to the next 200 on screen.
// Prints the median of RUNS (default 5) of each.
//
// Playwright's `waitFor` looks for an element at 0, 20, 70, 170, 270, 770 ms, ... (plus
// a round trip to the page each time): its times are those steps, not the page's. So
// the open is also timed inside the page (`in the page` below): from the click event to
// the frame after the first level went into the tree (a MutationObserver, then two
// animation frames), with the requests the page made meanwhile (Resource Timing: start
// after the click, and time to the answer's last byte) for the first, fresh open.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tests/peers/view/package.json'));
const { chromium } = require('playwright-core');

const [gamewire, file, runsArg, manyArg] = process.argv.slice(2);
const manyPointer = manyArg || '/0/many';
const runs = Number(runsArg || 5);
const server = spawn(gamewire, ['view', '--no-browser', '--port', '0', file], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const browser = await chromium.launch({
  executablePath: process.env.GAMEWIRE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const name = path.basename(file);
  const opens = [];
  const inPage = [];
  const expands = [];
  const mores = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(url);
    const fileButton = page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) });
    await fileButton.waitFor();
    await page.evaluate(() => {
      const gw = { requests: [] };
      window.gwBench = gw;
      document.addEventListener('click', () => { gw.click = performance.now(); }, { capture: true, once: true });
      const tree = document.getElementById('tree');
      const first = ':scope > [role="treeitem"] > [role="group"] > [role="treeitem"]';
      const obs = new MutationObserver(() => {
        if (gw.dom !== undefined || !tree.querySelector(first)) return;
        gw.dom = performance.now();
        obs.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => { gw.frame = performance.now(); }));
      });
      obs.observe(tree, { childList: true, subtree: true });
    });
    let t = performance.now();
    await fileButton.click();
    await page.locator('#tree > [role="treeitem"] > [role="group"] > [role="treeitem"]').first().waitFor({ timeout: 600000 });
    opens.push(performance.now() - t);
    await page.waitForFunction(() => window.gwBench.frame !== undefined);
    const gw = await page.evaluate(() => {
      const g = window.gwBench;
      const requests = performance.getEntriesByType('resource')
        .filter((e) => e.startTime >= g.click)
        .map((e) => ({ name: e.name, start: e.startTime - g.click, took: e.responseEnd - e.startTime }));
      return { dom: g.dom - g.click, frame: g.frame - g.click, requests };
    });
    inPage.push(gw.frame);
    if (i === 0) {
      // The requests that started before the frame, and those the open set off.
      await page.waitForLoadState('networkidle');
      const later = await page.evaluate(() => performance.getEntriesByType('resource')
        .filter((e) => e.startTime >= window.gwBench.click)
        .map((e) => ({ name: e.name, start: e.startTime - window.gwBench.click, took: e.responseEnd - e.startTime })));
      console.log(`first open, in the page: click to the first level in the tree ${gw.dom.toFixed(1)} ms, `
        + `to the frame after it ${gw.frame.toFixed(1)} ms; the page's requests (start after the click, `
        + 'time to the last byte):');
      for (const r of later) {
        const u = new URL(r.name);
        u.searchParams.delete('token');
        console.log(`  ${r.start.toFixed(1).padStart(7)} +${r.took.toFixed(1).padStart(7)} ms  ${decodeURIComponent(u.pathname + u.search).slice(0, 80)}`);
      }
    }

    // Reach /0/many: expand /0, select "many".
    const box = page.getByRole('searchbox');
    await box.fill('many');
    await box.press('Enter');
    await page.locator(`#results button[data-pointer="${manyPointer}"]`).click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, manyPointer);
    const many = page.locator(`[role="treeitem"][data-pointer="${manyPointer}"]`);
    await many.focus();
    t = performance.now();
    await page.keyboard.press('ArrowRight');
    await page.locator(`[role="treeitem"][data-pointer="${manyPointer}/199"]`).waitFor();
    expands.push(performance.now() - t);

    const more = many.locator(':scope > [role="group"] > .more');
    await more.focus();
    t = performance.now();
    await page.keyboard.press('Enter');
    await page.locator(`[role="treeitem"][data-pointer="${manyPointer}/399"]`).waitFor();
    mores.push(performance.now() - t);
  }
  console.log(`browser, ${path.basename(file)}, ${runs} runs, medians:`);
  // The server keeps a file open: only the first run reads it.
  console.log(`first open (click to first level on screen): ${opens[0].toFixed(0)} ms (in the page: ${inPage[0].toFixed(0)} ms)`);
  if (runs > 1) console.log(`open again (held by the server):             ${median(opens.slice(1)).toFixed(0)} ms (in the page: ${median(inPage.slice(1)).toFixed(0)} ms)`);
  console.log(`expand 10,000 (first 200 on screen):  ${median(expands).toFixed(1)} ms`);
  console.log(`show 200 more:                        ${median(mores).toFixed(1)} ms`);
} finally {
  await browser.close();
  server.kill();
}
