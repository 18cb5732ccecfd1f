// gamewire view: two files of one format side by side. One tree of rows aligned by
// JSON Pointer, each row the key, this file's value and the other's; the differences
// the server lists (GET /api/compare) are marked (changed, only in one file) and their
// containers too, and the keyboard moves through the rows (arrows, Home, End) and from
// difference to difference (n, p). Both files are read one level at a time (GET
// /api/node), as the main tree reads them.

import { treeKeydown } from './treekeys.js';

const LIMIT = 500;
const name = (id) => id.replace(/^\d+\//, '').replace('//', ' → ');
const esc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (t) => t.replace(/~1/g, '/').replace(/~0/g, '~');

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...kids);
  return e;
}

function summary(n) {
  if (!n) return '—';
  if (n.parts) return `${n.type.name} (${n.parts.join(', ')})`;
  if (n.count !== undefined) {
    const what = n.tag || (n.kind === 'array' ? 'list' : 'map');
    return `${what} (${n.count})`;
  }
  if (n.kind === 'string') return JSON.stringify(n.value) + (n.truncated ? '…' : '');
  if (n.text !== undefined) return n.text;
  return String(n.value);
}

let state = null; // the comparison shown

// Shows `leftId` against `rightId` side by side (in #compare-tree and the parts around it).
export async function showComparison(ctx) {
  const tree = document.getElementById('compare-tree');
  // Busy until the rows are in place (the browser test waits for it).
  tree.setAttribute('aria-busy', 'true');
  try {
    await fill(ctx, tree);
  } finally {
    tree.setAttribute('aria-busy', 'false');
  }
}

async function fill({ api, q, leftId, rightId, showError, status, reveal }, tree) {
  const r = await api('/api/compare?' + q({ file: leftId, other: rightId }));
  const marks = new Map(); // pointer -> 'changed' | 'only-left' | 'only-right'
  const inside = new Set(); // pointers holding a difference
  for (const c of r.changes) {
    marks.set(c.pointer, c.what === 'removed' ? 'only-left' : c.what === 'added' ? 'only-right' : 'changed');
    let p = c.pointer;
    while (p !== '') { p = p.slice(0, p.lastIndexOf('/')); inside.add(p); }
  }
  state = { api, q, leftId, rightId, showError, status, reveal, marks, inside, diffs: r.changes.map((c) => c.pointer), at: -1, tree };
  document.getElementById('comparison-title').textContent =
    `${name(leftId)} and ${name(rightId)}: ${r.changes.length}${r.more ? '+' : ''} ${r.changes.length === 1 ? 'difference' : 'differences'}`;
  document.getElementById('compare-left-name').textContent = name(leftId);
  document.getElementById('compare-right-name').textContent = name(rightId);
  tree.setAttribute('aria-label', `Side by side: ${name(leftId)} (left) and ${name(rightId)} (right)`);
  tree.textContent = '';
  const [left, right] = await Promise.all([nodeOf(leftId, ''), nodeOf(rightId, '')]);
  const rootRow = row(null, '', left, right, 1);
  tree.append(rootRow);
  await expand(rootRow);
  select(rootRow, false);
  document.getElementById('prev-diff').disabled = state.diffs.length === 0;
  document.getElementById('next-diff').disabled = state.diffs.length === 0;
}

async function nodeOf(file, pointer) {
  try {
    return await state.api('/api/node?' + state.q({ file, pointer, offset: 0, limit: LIMIT }));
  } catch (_) {
    return null; // not in this file
  }
}

function markOf(pointer, left, right) {
  const m = state.marks.get(pointer);
  if (m) return m;
  if (left && !right) return 'only-left';
  if (right && !left) return 'only-right';
  if (state.inside.has(pointer)) return 'inside';
  if (left && right && left.count === undefined && right.count === undefined && summary(left) !== summary(right)) return 'changed';
  return '';
}

const MARK_TEXT = {
  changed: () => 'changed',
  'only-left': () => `only in ${name(state.leftId)}`,
  'only-right': () => `only in ${name(state.rightId)}`,
  inside: () => 'differences inside',
};

function row(key, pointer, left, right, level) {
  const item = el('div', { tabIndex: -1 });
  item.setAttribute('role', 'treeitem');
  item.setAttribute('aria-level', String(level));
  item.setAttribute('aria-selected', 'false');
  item.dataset.pointer = pointer;
  item.pair = { left, right };
  const mark = markOf(pointer, left, right);
  if (mark) item.classList.add(mark);
  const isContainer = (left && left.count !== undefined) || (right && right.count !== undefined);
  if (isContainer) item.setAttribute('aria-expanded', 'false');
  const keyText = key === null ? '(root)' : String(key);
  const cells = el('div', { className: 'row' },
    el('span', { className: 'key', textContent: keyText, style: `padding-left: ${(level - 1) * 1.1}em` }),
    el('span', { className: 'left', textContent: summary(left) }),
    el('span', { className: 'right', textContent: summary(right) }));
  item.append(cells);
  const markText = mark ? `, ${MARK_TEXT[mark]()}` : '';
  item.setAttribute('aria-label', `${keyText}: ${summary(left)} | ${summary(right)}${markText}`);
  cells.addEventListener('click', () => {
    select(item, true);
    if (isContainer) toggle(item);
  });
  return item;
}

function groupOf(item) {
  return item.querySelector(':scope > [role="group"]');
}

async function expand(item) {
  const p = item.dataset.pointer;
  const { left, right } = item.pair;
  const [l, r] = await Promise.all([
    left && left.count !== undefined ? nodeOf(state.leftId, p) : null,
    right && right.count !== undefined ? nodeOf(state.rightId, p) : null,
  ]);
  const level = Number(item.getAttribute('aria-level')) + 1;
  const group = el('div');
  group.setAttribute('role', 'group');
  // Keys of this file in its order, then the other's own.
  const keys = [];
  const byKey = (n) => new Map((n ? n.children : []).map((c) => [String(c.key), c]));
  const lk = byKey(l);
  const rk = byKey(r);
  for (const k of lk.keys()) keys.push(k);
  for (const k of rk.keys()) if (!lk.has(k)) keys.push(k);
  const isList = (l || r).kind === 'array';
  if (isList) keys.sort((a, b) => Number(a) - Number(b));
  for (const k of keys) group.append(row(k, `${p}/${esc(k)}`, lk.get(k) || null, rk.get(k) || null, level));
  const shown = Math.max(l ? l.children.length : 0, r ? r.children.length : 0);
  const total = Math.max(l ? l.count : 0, r ? r.count : 0);
  if (shown < total) {
    group.append(el('div', { className: 'note', textContent: `${total - shown} more not shown side by side` }));
  }
  const old = groupOf(item);
  if (old) old.remove();
  item.append(group);
  item.setAttribute('aria-expanded', 'true');
}

function collapse(item) {
  const g = groupOf(item);
  if (g) g.remove();
  item.setAttribute('aria-expanded', 'false');
}

async function toggle(item) {
  if (item.getAttribute('aria-expanded') === 'true') collapse(item);
  else await expand(item);
}

function visible() {
  return [...state.tree.querySelectorAll('[role="treeitem"]')].filter((e) => {
    for (let p = e.parentElement; p && p !== state.tree; p = p.parentElement) {
      if (p.getAttribute('role') === 'treeitem' && p.getAttribute('aria-expanded') !== 'true') return false;
    }
    return true;
  });
}

function select(item, focus) {
  for (const s of state.tree.querySelectorAll('[aria-selected="true"]')) {
    s.setAttribute('aria-selected', 'false');
    s.tabIndex = -1;
  }
  item.setAttribute('aria-selected', 'true');
  item.tabIndex = 0;
  if (focus) item.focus();
  item.scrollIntoView({ block: 'nearest' });
}

// Expands the rows down to `pointer` and selects it.
async function revealRow(pointer) {
  let item = state.tree.firstElementChild;
  let p = '';
  const toks = pointer === '' ? [] : pointer.slice(1).split('/').map(unesc);
  for (const t of toks) {
    if (item.getAttribute('aria-expanded') !== 'true') await expand(item);
    p = `${p}/${esc(t)}`;
    const next = [...groupOf(item).children].find((e) => e.dataset.pointer === p);
    if (!next) { state.status(`${pointer} is past the rows shown side by side`); return; }
    item = next;
  }
  select(item, true);
}

// Goes to the next (`step` 1) or previous (-1) difference.
export async function stepDifference(step) {
  if (!state || state.diffs.length === 0) return;
  const n = state.diffs.length;
  state.at = state.at < 0 && step < 0 ? n - 1 : (state.at + step + n) % n;
  const p = state.diffs[state.at];
  await revealRow(p);
  state.status(`Difference ${state.at + 1} of ${n}: ${p || '(root)'}`);
}

export async function keydown(ev) {
  if (!state) return;
  await treeKeydown(ev, {
    visible,
    select,
    expand,
    collapse,
    firstChild: (item) => groupOf(item)?.querySelector('[role="treeitem"]'),
    // A container opens; a value is shown in this file's tree.
    enter: async (item, isContainer) => {
      if (isContainer) await toggle(item);
      else await state.reveal(item.dataset.pointer);
    },
    other: async (key) => {
      if (key === 'n') await stepDifference(1);
      else if (key === 'p') await stepDifference(-1);
      else return false;
      return true;
    },
  });
}
