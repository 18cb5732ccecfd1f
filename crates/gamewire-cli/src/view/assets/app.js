// gamewire view: the page. It asks the local server (same origin; the token travels in
// a cookie the server set and in a header) for files, one level of a document at a time,
// applies edits as JSON Patch operations, and saves. No format rule lives here.

import { scalarTypedEditor, componentEditor, typeText, cssColour } from './editors.js';
import { showComparison, stepDifference, keydown as compareKeydown } from './compare.js';
import { treeKeydown } from './treekeys.js';

const PAGE = 200;
// The server writes the token into the page (served only to requests carrying it), so a
// page reloaded without `?token=` still sends it with every change.
const token = document.querySelector('meta[name="gamewire-token"]')?.content
  || new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);

let current = null; // { id, root } of the open file
let undoStack = [];
let redoStack = [];
let selected = null; // the selected treeitem element
let allFiles = []; // [{ id, format }] as listed

function status(text) { $('status').textContent = text; }
function showError(text) { $('error').textContent = text || ''; }

async function api(path, body, raw) {
  const opts = { headers: { 'X-Gamewire-Token': token } };
  if (body !== undefined) {
    opts.method = 'POST';
    opts.headers['Content-Type'] = 'application/json';
    opts.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  const text = await resp.text();
  if (!resp.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  return raw ? text : JSON.parse(text);
}

const q = (params) => new URLSearchParams(params).toString();

// JSON Pointer tokens.
const esc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (t) => t.replace(/~1/g, '/').replace(/~0/g, '~');
const childPointer = (p, key) => `${p}/${esc(key)}`;
const tokensOf = (p) => (p === '' ? [] : p.slice(1).split('/').map(unesc));
const parentOf = (p) => p.slice(0, p.lastIndexOf('/'));

// ---- files ----

async function loadFiles() {
  const { files } = await api('/api/files');
  allFiles = files;
  const ul = $('files');
  ul.textContent = '';
  for (const f of files) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.id = f.id;
    const name = document.createElement('span');
    name.textContent = f.id.replace(/^\d+\//, '');
    const fmt = document.createElement('span');
    fmt.className = 'fmt';
    fmt.textContent = f.format || 'not recognised';
    b.append(name, fmt);
    b.setAttribute('aria-label', `${f.id.replace(/^\d+\//, '')} (${f.format || 'not recognised'})`);
    if (f.container) {
      // A pack or an archive: its entries are listed under it; an entry saved is
      // written back into it.
      b.setAttribute('aria-expanded', 'false');
      b.addEventListener('click', () => toggleEntries(f, li, b).catch((e) => showError(e.message)));
    } else {
      b.addEventListener('click', () => openFile(f.id));
    }
    li.append(b);
    ul.append(li);
  }
  status(`${files.length} files`);
}

async function toggleEntries(f, li, b) {
  const old = li.querySelector('ul');
  if (old) { old.remove(); b.setAttribute('aria-expanded', 'false'); return; }
  const { entries } = await api('/api/entries?' + q({ file: f.id }));
  const ul = document.createElement('ul');
  ul.className = 'entries';
  for (const e of entries) {
    const eli = document.createElement('li');
    const eb = document.createElement('button');
    eb.type = 'button';
    eb.dataset.id = `${f.id}//${e.name}`;
    const name = document.createElement('span');
    name.textContent = e.name;
    const fmt = document.createElement('span');
    fmt.className = 'fmt';
    fmt.textContent = e.format || (e.error ? 'unreadable' : 'bytes');
    eb.append(name, fmt);
    eb.setAttribute('aria-label', `${e.name} (${fmt.textContent})`);
    eb.disabled = !e.format;
    eb.addEventListener('click', () => openFile(eb.dataset.id));
    eli.append(eb);
    ul.append(eli);
  }
  li.append(ul);
  b.setAttribute('aria-expanded', 'true');
}

async function openFile(id, reload = false) {
  showError('');
  status(`Opening ${id}…`);
  // Busy until the new tree is in place: assistive technology (and the browser test)
  // wait for it instead of acting on the tree being replaced.
  $('tree').setAttribute('aria-busy', 'true');
  try {
    await openInto(id, reload);
  } finally {
    $('tree').setAttribute('aria-busy', 'false');
  }
}

async function openInto(id, reload) {
  let r;
  try {
    r = await api('/api/open', { file: id, reload });
  } catch (e) {
    showError(e.message);
    status('');
    return;
  }
  for (const b of document.querySelectorAll('#files button')) {
    b.setAttribute('aria-current', String(b.dataset.id === id));
  }
  current = { id };
  undoStack = [];
  redoStack = [];
  $('doc').hidden = false;
  $('filename').textContent = id.replace(/^\d+\//, '').replace('//', ' → ');
  $('format').textContent = r.format;
  $('settings-text').textContent = JSON.stringify(r.settings);
  $('results').hidden = true;
  $('more-results').hidden = true;
  searching = null;
  $('changes').hidden = true;
  $('comparison').hidden = true;
  fillCompareChoices(id);
  $('show-changes').setAttribute('aria-expanded', 'false');
  const tree = $('tree');
  tree.textContent = '';
  const root = makeItem({ key: null, ...r.node }, '', 1);
  tree.append(root);
  current.root = root;
  await expand(root, r.node);
  select(root, false);
  current.entry = r.entry;
  current.lazy = r.lazy;
  current.inPlace = r.inPlace;
  updateButtons(r.edited);
  const ro = r.entry ? ' — an entry of a pack or an archive: saved into it' : '';
  status(`${id}: ${r.format}${ro}${r.notes.length ? ' — ' + r.notes.join('; ') : ''}`);
}

// ---- tree ----

function summary(n) {
  // A vector or colour: its components.
  if (n.parts) return `${n.type.name} (${n.parts.join(', ')})`;
  if (n.count !== undefined) {
    const what = n.tag || (n.kind === 'array' ? 'list' : 'map');
    return `${what} (${n.count} ${n.count === 1 ? 'child' : 'children'})`;
  }
  return valueText(n);
}

function valueText(n) {
  if (n.kind === 'string' && n.truncated) return `${JSON.stringify(n.value).slice(0, -1)}…" (${n.length} bytes)`;
  if (n.kind === 'string') return JSON.stringify(n.value);
  if (n.text !== undefined) return n.text;
  return String(n.value);
}

function makeItem(n, pointer, level) {
  const item = document.createElement('div');
  item.setAttribute('role', 'treeitem');
  item.setAttribute('aria-level', String(level));
  item.setAttribute('aria-selected', 'false');
  item.tabIndex = -1;
  item.dataset.pointer = pointer;
  item.node = n;
  const row = document.createElement('div');
  row.className = 'row';
  item.append(row);
  fillRow(item);
  if (n.count !== undefined) item.setAttribute('aria-expanded', 'false');
  row.addEventListener('click', () => {
    select(item, true);
    if (n.count !== undefined) toggle(item);
  });
  return item;
}

function fillRow(item) {
  const n = item.node;
  const row = item.querySelector(':scope > .row');
  row.textContent = '';
  const tw = document.createElement('span');
  tw.className = 'twisty';
  tw.setAttribute('aria-hidden', 'true');
  tw.textContent = n.count !== undefined ? (item.getAttribute('aria-expanded') === 'true' ? '▾' : '▸') : '';
  const key = document.createElement('span');
  key.className = 'key';
  key.textContent = n.key === null || n.key === undefined ? '(root)' : String(n.key);
  const val = document.createElement('span');
  val.className = `val ${n.kind}`;
  val.textContent = summary(n);
  const type = document.createElement('span');
  type.className = 'type';
  type.textContent = n.type && n.type.name ? `${n.kind} · ${n.type.name}` : n.kind;
  row.append(tw, key, val, type);
  if (n.parts && n.type.colour) {
    const sw = document.createElement('span');
    sw.className = 'chip';
    sw.setAttribute('aria-hidden', 'true');
    sw.style.background = cssColour(n.type.colour, n.parts);
    val.before(sw);
  }
  item.setAttribute('aria-label', `${key.textContent}: ${val.textContent}, ${n.kind}`);
}

function groupOf(item) {
  return item.querySelector(':scope > [role="group"]');
}

async function expand(item, node) {
  const pointer = item.dataset.pointer;
  if (!node) node = await api('/api/node?' + q({ file: current.id, pointer, offset: 0, limit: PAGE }));
  item.node = { ...item.node, count: node.count, tag: node.tag, kind: node.kind };
  let group = groupOf(item);
  if (group) group.remove();
  group = document.createElement('div');
  group.setAttribute('role', 'group');
  item.append(group);
  item.setAttribute('aria-expanded', 'true');
  appendChildren(item, node);
  fillRow(item);
}

function appendChildren(item, node) {
  const group = groupOf(item);
  const level = Number(item.getAttribute('aria-level')) + 1;
  const old = group.querySelector(':scope > .more');
  if (old) old.remove();
  for (const c of node.children) {
    group.append(makeItem(c, childPointer(item.dataset.pointer, c.key), level));
  }
  const shown = node.offset + node.children.length;
  if (shown < node.count) {
    const more = document.createElement('div');
    more.setAttribute('role', 'treeitem');
    more.setAttribute('aria-level', String(level));
    more.className = 'more';
    more.tabIndex = -1;
    more.dataset.more = String(shown);
    const row = document.createElement('div');
    row.className = 'row';
    row.textContent = `Show ${Math.min(PAGE, node.count - shown)} more (${shown} of ${node.count} shown)`;
    more.append(row);
    row.addEventListener('click', () => loadMore(item));
    group.append(more);
  }
}

async function loadMore(item, upTo) {
  const group = groupOf(item);
  const more = group.querySelector(':scope > .more');
  if (!more) return;
  const offset = Number(more.dataset.more);
  const want = upTo === undefined ? PAGE : Math.max(PAGE, upTo + 1 - offset);
  const node = await api('/api/node?' + q({ file: current.id, pointer: item.dataset.pointer, offset, limit: want }));
  const wasFocused = document.activeElement === more;
  appendChildren(item, node);
  if (wasFocused) {
    const next = group.children[offset];
    if (next) select(next, true);
  }
}

function collapse(item) {
  const group = groupOf(item);
  if (group) group.remove();
  item.setAttribute('aria-expanded', 'false');
  fillRow(item);
}

async function toggle(item) {
  if (item.getAttribute('aria-expanded') === 'true') collapse(item);
  else await expand(item);
}

function visibleItems() {
  return [...$('tree').querySelectorAll('[role="treeitem"]')].filter((el) => {
    for (let p = el.parentElement; p && p.id !== 'tree'; p = p.parentElement) {
      if (p.getAttribute('role') === 'treeitem' && p.getAttribute('aria-expanded') !== 'true') return false;
    }
    return true;
  });
}

function select(item, focus) {
  if (selected) { selected.setAttribute('aria-selected', 'false'); selected.tabIndex = -1; }
  selected = item;
  item.setAttribute('aria-selected', 'true');
  item.tabIndex = 0;
  if (focus) item.focus();
  item.scrollIntoView({ block: 'nearest' });
  if (!item.classList.contains('more')) {
    showDetail(item);
    // The hex pane (hex.js) shows the value's bytes.
    document.dispatchEvent(new CustomEvent('gamewire:select', { detail: { file: current.id, pointer: item.dataset.pointer } }));
  }
}

$('tree').addEventListener('keydown', (ev) => treeKeydown(ev, {
  visible: visibleItems,
  select,
  expand: (item) => expand(item),
  collapse,
  firstChild: (item) => groupOf(item)?.firstElementChild,
  enter: async (item, isContainer) => {
    if (item.classList.contains('more')) await loadMore(item.parentElement.closest('[role="treeitem"]'));
    else if (isContainer) await toggle(item);
    else { const input = $('editor').querySelector('input, textarea, select'); if (input) input.focus(); }
  },
}));

// ---- detail and editors ----

let detailTicket = 0; // the detail shown last (an editor loading late is dropped)

function showDetail(item) {
  const ticket = ++detailTicket;
  const n = item.node;
  const pointer = item.dataset.pointer;
  $('pointer').textContent = pointer === '' ? '(root: "")' : pointer;
  $('kind').textContent = (n.tag ? `${n.kind} (${n.tag})` : n.kind) + (n.type ? ` — ${typeText(n.type)}` : '');
  const ed = $('editor');
  ed.textContent = '';
  const parent = item.parentElement?.closest('[role="treeitem"]');
  const typed = { showError, onEscape: () => item.focus() };
  const scalarTyped = n.count === undefined && !n.truncated
    && scalarTypedEditor(n, { ...typed, apply: (json) => perform({ op: 'replace', path: pointer, json }) });
  if (scalarTyped) {
    ed.append(...scalarTyped);
  } else if (n.type && n.type.kind === 'components') {
    // A vector or colour: its components, each in its own input.
    api('/api/value?' + q({ file: current.id, pointer }), undefined, true).then((text) => {
      if (ticket !== detailTicket) return;
      const apply = (ops) => perform(ops.map((o) => ({ op: 'replace', path: pointer + o.pointer, json: o.json })));
      ed.prepend(...componentEditor(n, JSON.parse(text), { ...typed, apply }));
    }).catch((e) => showError(e.message));
  } else if (n.count === undefined && n.kind !== 'null') {
    if (n.truncated) {
      // Only the start was listed: the editor gets the whole string first.
      ed.append(button(`Edit the whole string (${n.length} bytes)`, async () => {
        const full = JSON.parse(await api('/api/value?' + q({ file: current.id, pointer }), undefined, true));
        item.node = { ...n, value: full, truncated: false };
        showDetail(item);
        $('value-input').focus();
      }));
    } else {
      ed.append(...scalarEditor(item));
    }
  }
  if (n.kind === 'array' && n.count > 0) {
    const b = button('Add item (a copy of the last)', () => addCopy(item));
    ed.append(b);
  }
  if (parent && parent.node.kind === 'array') {
    ed.append(button('Remove this item', () => removeAt(item)));
  }
  if (parent && parent.node.kind === 'object') {
    ed.append(button('Remove this entry', () => removeAt(item)));
  }
  if (n.kind === 'object') {
    const keyLabel = document.createElement('label');
    keyLabel.textContent = 'New key';
    const key = document.createElement('input');
    key.type = 'text';
    key.id = 'new-key';
    keyLabel.htmlFor = 'new-key';
    const valLabel = document.createElement('label');
    valLabel.textContent = 'New value (JSON)';
    const val = document.createElement('textarea');
    val.id = 'new-value';
    valLabel.htmlFor = 'new-value';
    val.value = 'null';
    ed.append(keyLabel, key, valLabel, val, button('Add entry', () => addEntry(item, key.value, val.value)));
  }
}

function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

function scalarEditor(item) {
  const n = item.node;
  const label = document.createElement('label');
  label.htmlFor = 'value-input';
  label.textContent = `Value (${n.kind})`;
  let input;
  if (n.kind === 'boolean') {
    input = document.createElement('select');
    for (const v of ['true', 'false']) {
      const o = document.createElement('option');
      o.value = v; o.textContent = v; o.selected = String(n.value) === v;
      input.append(o);
    }
  } else if (n.kind === 'string' && (n.value.length > 60 || n.value.includes('\n'))) {
    input = document.createElement('textarea');
    input.value = n.value;
  } else {
    input = document.createElement('input');
    input.type = 'text';
    input.value = n.kind === 'string' ? n.value : valueText(n);
    if (n.kind === 'integer' || n.kind === 'float') input.inputMode = 'decimal';
  }
  input.id = 'value-input';
  const apply = button('Apply', () => applyEdit(item, input.value));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !(input.tagName === 'TEXTAREA' && ev.shiftKey)) {
      ev.preventDefault();
      applyEdit(item, input.value);
    } else if (ev.key === 'Escape') {
      item.focus();
    }
  });
  return [label, input, apply];
}

// The JSON text of a new value for a scalar of kind `kind`, or an error message.
export function jsonFor(kind, text) {
  const t = text.trim();
  switch (kind) {
    case 'integer':
      if (!/^-?(0|[1-9][0-9]*)$/.test(t)) return { error: `${JSON.stringify(text)} is not an integer` };
      return { json: t };
    case 'float': {
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(t) || !Number.isFinite(Number(t))) {
        return { error: `${JSON.stringify(text)} is not a finite number` };
      }
      // A float stays a float: written with a decimal point or an exponent.
      return { json: /[.eE]/.test(t) ? t : `${t}.0` };
    }
    case 'boolean': return { json: t === 'true' ? 'true' : 'false' };
    case 'string': return { json: JSON.stringify(text) };
    default: return { error: `a ${kind} is not edited here` };
  }
}

function currentJson(n) {
  if (n.kind === 'string') return JSON.stringify(n.value);
  if (n.text !== undefined) return n.text;
  return JSON.stringify(n.value);
}

async function applyEdit(item, text) {
  const n = item.node;
  if (n.truncated) { showError('only the start of this string is loaded'); return; }
  const r = jsonFor(n.kind, text);
  if (r.error) { showError(r.error); return; }
  if (currentJson(n) === r.json) return;
  await perform({ op: 'replace', path: item.dataset.pointer, json: r.json });
}

async function addCopy(item) {
  const n = item.node;
  const last = await api('/api/value?' + q({ file: current.id, pointer: childPointer(item.dataset.pointer, n.count - 1) }), undefined, true);
  await perform({ op: 'add', path: childPointer(item.dataset.pointer, n.count), json: last });
}

async function addEntry(item, key, text) {
  try { JSON.parse(text); } catch (e) { showError(`the value is not JSON: ${e.message}`); return; }
  if (key === '') { showError('name the key'); return; }
  await perform({ op: 'add', path: childPointer(item.dataset.pointer, key), json: text });
}

async function removeAt(item) {
  await perform({ op: 'remove', path: item.dataset.pointer });
}

// The JSON text of a patch holding `op` ({op, path, json: the value as JSON text}):
// values travel as text so big integers stay exact.
// `op` may be a list of such operations, made (and undone) as one edit.
function opsText(op) {
  const one = (o) => {
    const value = o.json === undefined ? '' : `,"value":${o.json}`;
    return `{"op":${JSON.stringify(o.op)},"path":${JSON.stringify(o.path)}${value}}`;
  };
  return `[${(Array.isArray(op) ? op : [op]).map(one).join(',')}]`;
}

// Sends a patch (JSON text of its operations); returns the JSON text that undoes it.
async function send(ops) {
  // A big file is read through the library's view; its edits are made on its bytes
  // (Godot, Resonite), or its first edit builds its whole document on the server: say
  // so while it does.
  const converting = current.lazy && !current.inPlace;
  if (converting) status(`Converting ${current.id} for editing: the first edit reads the whole file…`);
  const r = await api('/api/patch', `{"file":${JSON.stringify(current.id)},"ops":${ops}}`);
  if (converting) current.lazy = false;
  return r.undo;
}

async function perform(op) {
  showError('');
  const text = opsText(op);
  let undoText;
  try { undoText = await send(text); } catch (e) { showError(e.message); return; }
  undoStack.push({ text, undoText });
  redoStack = [];
  await afterEdit(text);
}

async function afterEdit(text) {
  for (const op of JSON.parse(text)) await refresh(op);
  updateButtons(true);
  if (!$('changes').hidden) await showChanges();
  status(`Edited ${JSON.parse(text).map((o) => o.path).join(', ')}`);
}

// Shows the tree as the server holds it after `op` (paths only are read).
async function refresh(op) {
  const tree = $('tree');
  const find = (p) => [...tree.querySelectorAll('[role="treeitem"]')].find((el) => el.dataset.pointer === p);
  if (op.op === 'replace') {
    const item = find(op.path);
    if (!item) {
      // A component of a value shown whole (a vector, a colour): that value is marked,
      // and its editor shows what the server now holds.
      let p = op.path;
      while (p && !find(p)) p = parentOf(p);
      const holder = find(p);
      if (holder && p !== '') {
        const n = await api('/api/node?' + q({ file: current.id, pointer: p, limit: 0 }));
        holder.node = { ...n, key: holder.node.key };
        holder.classList.add('edited');
        fillRow(holder);
        if (holder === selected) showDetail(holder);
      }
    }
    if (item) {
      const n = await api('/api/node?' + q({ file: current.id, pointer: op.path, limit: 0 }));
      item.node = { ...n, key: item.node.key };
      item.classList.add('edited');
      fillRow(item);
      if (item === selected) showDetail(item);
    }
    return;
  }
  const parent = find(parentOf(op.path));
  if (parent) {
    await expand(parent);
    const again = find(op.path) || parent;
    select(again, true);
  }
}

async function undo() {
  const e = undoStack.pop();
  if (!e) return;
  try { await send(e.undoText); } catch (err) { showError(err.message); undoStack.push(e); return; }
  redoStack.push(e);
  await afterEdit(e.undoText);
}

async function redo() {
  const e = redoStack.pop();
  if (!e) return;
  try { e.undoText = await send(e.text); } catch (err) { showError(err.message); redoStack.push(e); return; }
  undoStack.push(e);
  await afterEdit(e.text);
}

function updateButtons(edited) {
  $('undo').disabled = undoStack.length === 0;
  $('redo').disabled = redoStack.length === 0;
  $('save').disabled = !edited && undoStack.length === 0;
}

async function save() {
  showError('');
  status('Saving…');
  try {
    const r = await api('/api/save', { file: current.id });
    undoStack = [];
    redoStack = [];
    for (const el of document.querySelectorAll('.edited')) el.classList.remove('edited');
    updateButtons(false);
    if (!$('changes').hidden) await showChanges();
    status(`Saved ${current.id.replace(/^\d+\//, '')} (${r.bytes} bytes)`);
  } catch (e) {
    showError(e.message);
    status('Not saved');
  }
}

async function showChanges() {
  const { changes, more } = await api('/api/changes?' + q({ file: current.id }));
  const body = $('changes-body');
  body.textContent = '';
  for (const c of changes) {
    const tr = document.createElement('tr');
    for (const t of [c.pointer, c.old ?? `(${c.what})`, c.new ?? `(${c.what})`]) {
      const td = document.createElement('td');
      td.textContent = t;
      tr.append(td);
    }
    body.append(tr);
  }
  if (changes.length === 0) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 3;
    td.textContent = 'No changes: the page holds what the file on disk holds.';
    tr.append(td);
    body.append(tr);
  }
  if (more) status('Changes: only the first 1000 are listed');
}

// ---- compare ----

function fillCompareChoices(id) {
  const sel = $('compare-with');
  sel.textContent = '';
  const mine = allFiles.find((f) => f.id === id);
  const word = (f) => (f && f.format ? f.format.split(' ')[0] : '');
  for (const f of allFiles) {
    if (f.id === id || !f.format || f.format.startsWith('side file') || word(f) !== word(mine)) continue;
    const o = document.createElement('option');
    o.value = f.id;
    o.textContent = f.id.replace(/^\d+\//, '');
    sel.append(o);
  }
  $('compare').disabled = sel.options.length === 0;
}

async function compare() {
  const other = $('compare-with').value;
  if (!other) return;
  showError('');
  $('comparison').hidden = false;
  try {
    await showComparison({ api, q, leftId: current.id, rightId: other, showError, status, reveal });
  } catch (e) { showError(e.message); }
}

// ---- search ----

// The search whose hits are listed, and where its next page starts (null: no more).
let searching = null;

async function search(text) {
  const ul = $('results');
  ul.textContent = '';
  $('more-results').hidden = true;
  searching = null;
  if (!text) { ul.hidden = true; return; }
  await searchPage(text, 0);
}

// Lists the page of hits from `offset` after those already listed.
async function searchPage(text, offset) {
  const ul = $('results');
  const file = current.id;
  const { hits, more, next, stopped } = await api('/api/search?' + q({ file, q: text, offset }));
  if (current.id !== file) return;
  let first = null;
  for (const h of hits) {
    const li = document.createElement('li');
    const b = button(`${h.pointer} — ${h.on === 'key' ? 'key' : h.kind} ${h.text}`, () => reveal(h.pointer));
    b.dataset.pointer = h.pointer;
    li.append(b);
    ul.append(li);
    first ??= b;
  }
  ul.hidden = false;
  searching = more ? { text, next } : null;
  $('more-results').hidden = !more;
  const total = offset + hits.length;
  status(`${total}${more ? '+' : ''} found for ${JSON.stringify(text)}${stopped ? ` (${stopped})` : ''}`);
  return first;
}

// The next page of the search, its first hit focused (the button goes when none are left).
async function moreResults() {
  if (!searching) return;
  const first = await searchPage(searching.text, searching.next);
  if (first) first.focus();
}

// Expands the tree down to `pointer` and selects it.
async function reveal(pointer) {
  let item = current.root;
  let p = '';
  for (const t of tokensOf(pointer)) {
    if (item.getAttribute('aria-expanded') !== 'true') await expand(item);
    p = childPointer(p, t);
    const group = groupOf(item);
    let next = null;
    for (;;) {
      next = [...group.children].find((el) => el.dataset.pointer === p);
      if (next || !group.querySelector(':scope > .more')) break;
      const idx = item.node.kind === 'array' ? Number(t) : undefined;
      await loadMore(item, idx);
    }
    if (!next) { showError(`${pointer} is not in the document`); return; }
    item = next;
  }
  select(item, true);
}

$('search').addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') { ev.preventDefault(); search($('search').value).catch((e) => showError(e.message)); }
});
$('more-results').addEventListener('click', () => moreResults().catch((e) => showError(e.message)));
$('undo').addEventListener('click', undo);
$('redo').addEventListener('click', redo);
$('save').addEventListener('click', save);
$('compare').addEventListener('click', compare);
$('compare-tree').addEventListener('keydown', (ev) => compareKeydown(ev).catch((e) => showError(e.message)));
$('next-diff').addEventListener('click', () => stepDifference(1).catch((e) => showError(e.message)));
$('prev-diff').addEventListener('click', () => stepDifference(-1).catch((e) => showError(e.message)));
$('close-compare').addEventListener('click', () => { $('comparison').hidden = true; });
$('reload').addEventListener('click', () => {
  // The server's copy of the file, edits and all, is dropped and the file read again.
  if (!current) return;
  if (undoStack.length && !window.confirm('Drop the edits not saved and read the file again?')) return;
  openFile(current.id, true);
});
$('show-changes').addEventListener('click', async () => {
  const sec = $('changes');
  sec.hidden = !sec.hidden;
  $('show-changes').setAttribute('aria-expanded', String(!sec.hidden));
  if (!sec.hidden) await showChanges();
});
document.addEventListener('keydown', (ev) => {
  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'z' && !ev.target.matches('input, textarea')) { ev.preventDefault(); undo(); }
  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'y' && !ev.target.matches('input, textarea')) { ev.preventDefault(); redo(); }
});

// Edits live on the server until saved; leaving the page with some asks first.
window.addEventListener('beforeunload', (ev) => {
  if (undoStack.length) { ev.preventDefault(); ev.returnValue = ''; }
});

loadFiles().catch((e) => showError(e.message));
