// Drives the `gamewire view` page in Debian's headless chromium (playwright-core gives it
// a fresh temporary profile), as a user would: for each case, open the file from the
// list, search for a value, pick the hit, edit the value in its editor, look at the
// changes, undo and redo, and save. Written for gamewire's view test
// (crates/gamewire-cli/tests/view_cli.rs), which checks the saved files with the library.
//
//   node view.mjs GAMEWIRE FOLDER CASES_JSON [SCREENSHOT.png]
//
// SCREENSHOT.png: the page as it is just before the last case's save.
// CASES_JSON: [{"file", "search", "pointer", "input", "fullLength"?, "hex"?}] (fullLength:
// a long string, whose whole text the editor must hold before the edit; hex: text the hex
// pane must show for the value found). Prints `EDITED file pointer` per
// case; the exit code is 0 only when every case went through.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { chromium } from 'playwright-core';

const [gamewire, folder, casesJson, screenshot] = process.argv.slice(2);
if (!casesJson) {
  console.error('usage: node view.mjs GAMEWIRE FOLDER CASES_JSON [SCREENSHOT.png]');
  process.exit(2);
}
const cases = JSON.parse(casesJson);
const executable = process.env.GAMEWIRE_CHROMIUM || '/usr/bin/chromium';

const server = spawn(gamewire, ['view', '--no-browser', '--port', '0', folder], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  const rl = readline.createInterface({ input: server.stdout });
  rl.once('line', resolve);
  server.once('exit', (code) => reject(new Error(`gamewire view exited (${code})`)));
});
if (!/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/.test(url)) throw new Error(`not an address: ${url}`);

let browser;
let code = 1;
try {
  browser = await chromium.launch({
    executablePath: executable,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const outside = [];
  page.on('request', (r) => { if (!r.url().startsWith(url.replace(/\/\?.*/, '/'))) outside.push(r.url()); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  // Reloaded without `?token=`, the page still works (the cookie brings it, and the page
  // carries the token for its changes).
  await page.goto(url.replace(/\?token=.*/, ''));
  const tree = page.getByRole('tree');
  const status = page.getByRole('status');

  // A side file is listed, and opening it says what it is instead of a tree.
  if (process.env.GAMEWIRE_VIEW_SIDE_FILE) {
    const [name, message] = JSON.parse(process.env.GAMEWIRE_VIEW_SIDE_FILE);
    await page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(side file`) }).click();
    await page.waitForFunction((m) => document.querySelector('[role="alert"]').textContent.includes(m), message);
    if (!(await page.getByRole('alert').isVisible())) throw new Error('the error is not shown');
    console.log(`REFUSED ${name}`);
  }

  // An entry of a pack: listed under it, opened read-only (GAMEWIRE_VIEW_ENTRY: the
  // pack's name, the entry's, and a value to find in it).
  if (process.env.GAMEWIRE_VIEW_ENTRY) {
    const [packName, entryName, search, pointer] = JSON.parse(process.env.GAMEWIRE_VIEW_ENTRY);
    const re = (t) => new RegExp(`^${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`);
    const packButton = page.getByRole('button', { name: re(packName) });
    await packButton.click();
    await page.waitForFunction((n) => [...document.querySelectorAll('nav button[aria-expanded="true"]')].some((b) => b.textContent.startsWith(n)), packName);
    await page.getByRole('button', { name: re(entryName) }).click();
    await page.waitForFunction(() => document.getElementById('tree').getAttribute('aria-busy') === 'false');
    await tree.getByRole('treeitem').first().waitFor();
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('read-only'));
    const box = page.getByRole('searchbox');
    await box.fill(search);
    await box.press('Enter');
    await page.locator('#results button').filter({ has: page.locator(`xpath=self::*[@data-pointer=${JSON.stringify(pointer)}]`) }).first().click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, pointer);
    if (!(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled())) throw new Error('Save is enabled on a read-only entry');
    console.log(`ENTRY ${packName} ${entryName} ${pointer}`);
  }

  for (const c of cases) {
    await page.getByRole('button', { name: new RegExp(`^${c.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }).click();
    // The same file may be open already: wait for this opening to finish.
    await page.waitForFunction((f) => document.getElementById('filename').textContent === f
      && document.getElementById('tree').getAttribute('aria-busy') === 'false', c.file);
    await tree.getByRole('treeitem').first().waitFor();

    // The keyboard: the root expands and collapses with the arrows.
    const root = tree.getByRole('treeitem').first();
    await root.focus();
    const rootExpanded = (v) => page.waitForFunction(
      (want) => document.querySelector('#tree > [role="treeitem"]').getAttribute('aria-expanded') === want,
      v);
    await page.keyboard.press('ArrowLeft');
    await rootExpanded('false');
    await page.keyboard.press('ArrowRight');
    await rootExpanded('true');

    const box = page.getByRole('searchbox');
    await box.fill(c.search);
    await box.press('Enter');
    const hit = page.locator('#results button').filter({ has: page.locator(`xpath=self::*[@data-pointer=${JSON.stringify(c.pointer)}]`) });
    await hit.first().click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, c.pointer);
    const sel = tree.locator('[role="treeitem"][aria-selected="true"]');
    if (await sel.getAttribute('data-pointer') !== c.pointer) throw new Error(`${c.file}: ${c.pointer} not selected in the tree`);

    // The hex pane: where the selected value's bytes are (it is busy while it asks).
    if (c.hex) {
      const shown = () => page.evaluate(() => document.getElementById('hex-where').textContent);
      try {
        await page.waitForFunction((want) => document.getElementById('hex').getAttribute('aria-busy') === 'false'
          && document.getElementById('hex-where').textContent.includes(want), c.hex, { timeout: 10000 });
      } catch (e) {
        throw new Error(`${c.file}: the hex pane says ${JSON.stringify(await shown())}, not ${JSON.stringify(c.hex)}`);
      }
      if (!(await page.locator('#hex-dump').textContent()).startsWith('0000')) throw new Error(`${c.file}: no hex dump`);
      console.log(`BYTES ${c.file} ${c.pointer}`);
    }

    // A long string is listed by its start: the editor loads all of it first.
    if (c.fullLength) {
      await page.getByRole('button', { name: /^Edit the whole string/ }).click();
      const got = await page.getByLabel(/^Value \(/).inputValue();
      if (got.length !== c.fullLength) throw new Error(`${c.file}: the editor holds ${got.length} characters, not ${c.fullLength}`);
    }
    // Enter on a value goes to its editor.
    await sel.focus();
    await page.keyboard.press('Enter');
    const input = page.getByLabel(/^Value \(/);
    if (!(await input.evaluate((el) => el === document.activeElement))) throw new Error('Enter did not focus the editor');
    if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(c.input);
    else await input.fill(c.input);
    await input.press('Enter');
    await page.waitForFunction(() => !document.getElementById('undo').disabled);

    // The changes: one row, this pointer; Undo empties them, Redo brings it back.
    const changesButton = page.getByRole('button', { name: 'Changes', exact: true });
    if (await changesButton.getAttribute('aria-expanded') !== 'true') await changesButton.click();
    const rows = page.locator('#changes-body tr');
    await page.waitForFunction((p) => document.querySelector('#changes-body tr td')?.textContent === p, c.pointer);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#changes-body tr td')?.textContent.startsWith('No changes'));
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await page.waitForFunction((p) => document.querySelector('#changes-body tr td')?.textContent === p, c.pointer);
    if ((await rows.count()) !== 1) throw new Error(`${c.file}: ${await rows.count()} changes listed`);

    if (screenshot && c === cases[cases.length - 1]) await page.screenshot({ path: screenshot });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForFunction(() => /^Saved |^Not saved/.test(document.getElementById('status').textContent));
    const said = await status.textContent();
    if (!said.startsWith('Saved ')) throw new Error(`${c.file}: ${said}: ${await page.locator('#error').textContent()}`);
    console.log(`EDITED ${c.file} ${c.pointer}`);
  }
  // Compare: the last file saved against the copy named by COMPARE_WITH (the file as it
  // was): one difference, the value edited, marked in both columns.
  if (process.env.GAMEWIRE_VIEW_COMPARE) {
    const [other, pointer, left, right] = JSON.parse(process.env.GAMEWIRE_VIEW_COMPARE);
    await page.getByLabel('Compare with').selectOption({ label: other });
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const region = page.getByRole('region', { name: 'Comparison' });
    await region.waitFor();
    const cells = await region.locator('tbody tr td').allTextContents();
    if (JSON.stringify(cells) !== JSON.stringify([pointer, left, right])) {
      throw new Error(`comparison: ${JSON.stringify(cells)}`);
    }
    console.log(`COMPARED ${other} ${pointer}`);
  }
  // A map entry added (and an undo and redo of it), then saved: GAMEWIRE_VIEW_MAP holds
  // the open file's map pointer, a search finding a value in it and that value's
  // pointer, the new key and its JSON value.
  if (process.env.GAMEWIRE_VIEW_MAP) {
    const [mapPointer, search, hitPointer, key, value] = JSON.parse(process.env.GAMEWIRE_VIEW_MAP);
    const box = page.getByRole('searchbox');
    await box.fill(search);
    await box.press('Enter');
    await page.locator('#results button').filter({ has: page.locator(`xpath=self::*[@data-pointer=${JSON.stringify(hitPointer)}]`) }).first().click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, hitPointer);
    // ArrowLeft on a value goes to the map holding it.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, mapPointer);
    await page.getByLabel('New key').fill(key);
    await page.getByLabel('New value (JSON)').fill(value);
    await page.getByRole('button', { name: 'Add entry', exact: true }).click();
    const added = `${mapPointer}/${key}`;
    const changesButton = page.getByRole('button', { name: 'Changes', exact: true });
    if (await changesButton.getAttribute('aria-expanded') !== 'true') await changesButton.click();
    await page.waitForFunction((p) => document.querySelector('#changes-body tr td')?.textContent === p, added);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#changes-body tr td')?.textContent.startsWith('No changes'));
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await page.waitForFunction((p) => document.querySelector('#changes-body tr td')?.textContent === p, added);
    const item = page.locator(`[role="treeitem"][data-pointer=${JSON.stringify(added)}]`);
    await item.waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForFunction(() => /^Saved |^Not saved/.test(document.getElementById('status').textContent));
    const said = await status.textContent();
    if (!said.startsWith('Saved ')) throw new Error(`map entry: ${said}: ${await page.locator('#error').textContent()}`);
    console.log(`ADDED ${added}`);
  }
  if (errors.length) throw new Error(`errors on the page: ${errors.join('; ')}`);
  if (outside.length) throw new Error(`the page loaded from outside: ${outside.join(', ')}`);
  code = 0;
} catch (e) {
  console.error(String(e && e.stack || e));
} finally {
  if (browser) await browser.close();
  server.kill();
}
process.exit(code);
