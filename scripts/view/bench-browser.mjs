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
  const expands = [];
  const mores = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(url);
    const fileButton = page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) });
    await fileButton.waitFor();
    let t = performance.now();
    await fileButton.click();
    await page.locator('#tree > [role="treeitem"] > [role="group"] > [role="treeitem"]').first().waitFor({ timeout: 600000 });
    opens.push(performance.now() - t);

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
  console.log(`first open (click to first level on screen): ${opens[0].toFixed(0)} ms`);
  if (runs > 1) console.log(`open again (held by the server):             ${median(opens.slice(1)).toFixed(0)} ms`);
  console.log(`expand 10,000 (first 200 on screen):  ${median(expands).toFixed(1)} ms`);
  console.log(`show 200 more:                        ${median(mores).toFixed(1)} ms`);
} finally {
  await browser.close();
  server.kill();
}
