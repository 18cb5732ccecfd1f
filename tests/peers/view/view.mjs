// Drives the `gamewire view` page in Debian's headless chromium (playwright-core gives it
// a fresh temporary profile), as a user would: for each case, open the file from the
// list, search for a value, pick the hit, edit the value in its editor, look at the
// changes, undo and redo, and save. Written for gamewire's view test
// (crates/gamewire-cli/tests/view_cli.rs), which checks the saved files with the library.
//
//   node view.mjs GAMEWIRE FOLDER CASES_JSON [SCREENSHOT.png | SCREENSHOT_FOLDER]
//
// SCREENSHOT.png: the page as it is just before the last case's save. A folder instead
// gets view-edit.png (that), view-components.png (the last component editor before its
// save) and view-compare.png (the side-by-side comparison at its difference).
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
const shotDir = screenshot && !screenshot.endsWith('.png') ? screenshot : null;
const shot = (name) => (shotDir ? `${shotDir}/${name}` : name === 'view-edit.png' ? screenshot : null);
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
  const tree = page.getByRole('tree', { name: 'Values', exact: true });
  const status = page.getByRole('status');

  // A side file is listed, and opening it says what it is instead of a tree.
  if (process.env.GAMEWIRE_VIEW_SIDE_FILE) {
    const [name, message] = JSON.parse(process.env.GAMEWIRE_VIEW_SIDE_FILE);
    await page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(side file`) }).click();
    await page.waitForFunction((m) => document.querySelector('[role="alert"]').textContent.includes(m), message);
    if (!(await page.getByRole('alert').isVisible())) throw new Error('the error is not shown');
    console.log(`REFUSED ${name}`);
  }

  // An entry of a pack: listed under it, opened to be saved into it (GAMEWIRE_VIEW_ENTRY: the
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
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('saved into it'));
    const box = page.getByRole('searchbox');
    await box.fill(search);
    await box.press('Enter');
    await page.locator('#results button').filter({ has: page.locator(`xpath=self::*[@data-pointer=${JSON.stringify(pointer)}]`) }).first().click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, pointer);
    if (!(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled())) throw new Error('Save is enabled on an entry not edited');
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

    if (shot('view-edit.png') && c === cases[cases.length - 1]) await page.screenshot({ path: shot('view-edit.png') });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForFunction(() => /^Saved |^Not saved/.test(document.getElementById('status').textContent));
    const said = await status.textContent();
    if (!said.startsWith('Saved ')) throw new Error(`${c.file}: ${said}: ${await page.locator('#error').textContent()}`);
    console.log(`EDITED ${c.file} ${c.pointer}`);
  }
  // Vectors and colours by component (GAMEWIRE_VIEW_COMPONENTS: [{file, search,
  // pointer, refuse: [label, text, message], set: {label: text}}]): a value out of its
  // component's range is refused with the message and nothing is sent; then the
  // components set are applied as one edit (one Undo), the swatch follows, and the file is
  // saved.
  for (const c of JSON.parse(process.env.GAMEWIRE_VIEW_COMPONENTS || '[]')) {
    await page.getByRole('button', { name: new RegExp(`^${c.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }).click();
    await page.waitForFunction((f) => document.getElementById('filename').textContent === f
      && document.getElementById('tree').getAttribute('aria-busy') === 'false', c.file);
    const box = page.getByRole('searchbox');
    await box.fill(c.search);
    await box.press('Enter');
    await page.locator('#results button').filter({ has: page.locator(`xpath=self::*[@data-pointer=${JSON.stringify(c.pointer)}]`) }).first().click();
    await page.waitForFunction((p) => document.getElementById('pointer').textContent === p, c.pointer);
    const fields = page.getByRole('group', { name: /by component$/ });
    await fields.waitFor();
    const swatch = fields.getByRole('img');
    const colourBefore = (await swatch.count()) ? await swatch.getAttribute('aria-label') : null;
    const undoWas = await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled();
    if (c.refuse) {
      const [label, text, message] = c.refuse;
      const input = fields.getByLabel(label, { exact: true });
      const was = await input.inputValue();
      await input.fill(text);
      await input.press('Enter');
      await page.waitForFunction((m) => document.querySelector('[role="alert"]').textContent.includes(m), message);
      if ((await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled()) !== undoWas) throw new Error(`${c.file}: a refused value was sent`);
      await input.fill(was);
      console.log(`REFUSED ${c.file} ${c.pointer} ${label}`);
    }
    let last;
    for (const [label, text] of Object.entries(c.set)) {
      last = fields.getByLabel(label, { exact: true });
      await last.fill(text);
    }
    if (colourBefore !== null && (await swatch.getAttribute('aria-label')) === colourBefore) throw new Error(`${c.file}: the swatch did not follow the components`);
    await last.press('Enter');
    await page.waitForFunction(() => !document.getElementById('undo').disabled);
    // The editor shows the server's value again: the components set.
    await page.waitForFunction(([p, want]) => {
      const fs = document.querySelector('#editor fieldset');
      if (!fs || document.getElementById('pointer').textContent !== p) return false;
      return Object.entries(want).every(([l, v]) => {
        const lab = [...fs.querySelectorAll('label')].find((x) => x.textContent === l);
        return lab && Number(document.getElementById(lab.htmlFor).value) === Number(v);
      });
    }, [c.pointer, c.set]);
    if (shot('view-components.png')) await page.screenshot({ path: shot('view-components.png') });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForFunction(() => /^Saved |^Not saved/.test(document.getElementById('status').textContent));
    const said = await status.textContent();
    if (!said.startsWith('Saved ')) throw new Error(`${c.file}: ${said}: ${await page.locator('#error').textContent()}`);
    console.log(`COMPONENTS ${c.file} ${c.pointer}`);
  }
  // A map entry added (and an undo and redo of it), then saved: GAMEWIRE_VIEW_MAP holds
  // the file, its map pointer, a search finding a value in it and that value's
  // pointer, the new key and its JSON value.
  if (process.env.GAMEWIRE_VIEW_MAP) {
    const [file, mapPointer, search, hitPointer, key, value] = JSON.parse(process.env.GAMEWIRE_VIEW_MAP);
    await page.getByRole('button', { name: new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }).click();
    await page.waitForFunction((f) => document.getElementById('filename').textContent === f
      && document.getElementById('tree').getAttribute('aria-busy') === 'false', file);
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
  // Compare: a file against the copy named by GAMEWIRE_VIEW_COMPARE (the file as it
  // was), side by side: from the keyboard, `n` goes from difference to difference (the
  // value edited, marked changed; the key added, marked as only in the left file), each
  // file's value in its column, and its container marked as holding it.
  if (process.env.GAMEWIRE_VIEW_COMPARE) {
    const [file, other, diffs] = JSON.parse(process.env.GAMEWIRE_VIEW_COMPARE);
    await page.getByRole('button', { name: new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }).click();
    await page.waitForFunction((f) => document.getElementById('filename').textContent === f
      && document.getElementById('tree').getAttribute('aria-busy') === 'false', file);
    await page.getByLabel('Compare with').selectOption({ label: other });
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const region = page.getByRole('region', { name: 'Comparison' });
    await region.waitFor();
    await page.waitForFunction(() => document.getElementById('compare-tree').getAttribute('aria-busy') === 'false'
      && document.querySelector('#compare-tree [role="treeitem"]'));
    const side = region.getByRole('tree');
    const title = await page.locator('#comparison-title').textContent();
    if (!title.endsWith(`: ${diffs.length} difference${diffs.length === 1 ? '' : 's'}`)) throw new Error(`comparison: ${title}`);
    await side.getByRole('treeitem').first().focus();
    for (const [pointer, left, right, mark, said] of diffs) {
      await page.keyboard.press('n');
      await page.waitForFunction((p) => document.querySelector('#compare-tree [aria-selected="true"]')?.dataset.pointer === p, pointer);
      const row = side.locator('[role="treeitem"][aria-selected="true"]');
      if (!(await row.evaluate((e) => e === document.activeElement))) throw new Error('the difference is not focused');
      const cells = [await row.locator(':scope > .row .left').textContent(), await row.locator(':scope > .row .right').textContent()];
      if (JSON.stringify(cells) !== JSON.stringify([left, right])) throw new Error(`comparison ${pointer}: ${JSON.stringify(cells)}`);
      const label = await row.getAttribute('aria-label');
      if (!(await row.getAttribute('class')).split(' ').includes(mark) || !label.endsWith(`, ${said}`)) {
        throw new Error(`comparison: ${pointer} is not marked ${mark}: ${label}`);
      }
      // Its container is marked as holding it.
      const parentPointer = pointer.slice(0, pointer.lastIndexOf('/'));
      const holder = side.locator(`[role="treeitem"][data-pointer=${JSON.stringify(parentPointer)}]`);
      if (!(await holder.getAttribute('class')).split(' ').includes('inside')) throw new Error(`${pointer}'s container is not marked`);
    }
    // ArrowUp and ArrowDown move by row; `p` goes back a difference.
    const last = diffs[diffs.length - 1][0];
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((p) => document.querySelector('#compare-tree [aria-selected="true"]')?.dataset.pointer !== p, last);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((p) => document.querySelector('#compare-tree [aria-selected="true"]')?.dataset.pointer === p, last);
    if (diffs.length > 1) {
      await page.keyboard.press('p');
      await page.waitForFunction((p) => document.querySelector('#compare-tree [aria-selected="true"]')?.dataset.pointer === p, diffs[diffs.length - 2][0]);
    }
    if (shot('view-compare.png')) await page.screenshot({ path: shot('view-compare.png') });
    console.log(`COMPARED ${other} ${diffs.map((d) => d[0]).join(' ')}`);
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
