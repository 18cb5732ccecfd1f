// gamewire view: the keys of a tree (the WAI-ARIA tree pattern: arrows, Home, End,
// Enter), written once for the file's tree (app.js) and the comparison's (compare.js);
// each tree gives its own actions.

// Handles `ev` on a tree whose actions are `t`: `visible()` (its treeitems shown, in
// order), `select(item, focus)`, `expand(item)`, `collapse(item)`, `firstChild(item)`,
// `enter(item, isContainer)`, and optionally `other(key)` for its own keys (true when it
// took the key). A key taken is kept from the browser.
export async function treeKeydown(ev, t) {
  const item = ev.target.closest('[role="treeitem"]');
  if (!item) return;
  const items = t.visible();
  const i = items.indexOf(item);
  const isContainer = item.hasAttribute('aria-expanded');
  const open = item.getAttribute('aria-expanded') === 'true';
  switch (ev.key) {
    case 'ArrowDown': if (i + 1 < items.length) t.select(items[i + 1], true); break;
    case 'ArrowUp': if (i > 0) t.select(items[i - 1], true); break;
    case 'Home': t.select(items[0], true); break;
    case 'End': t.select(items[items.length - 1], true); break;
    case 'ArrowRight':
      if (isContainer && !open) await t.expand(item);
      else if (open) { const first = t.firstChild(item); if (first) t.select(first, true); }
      break;
    case 'ArrowLeft':
      if (open) t.collapse(item);
      else { const parent = item.parentElement?.closest('[role="treeitem"]'); if (parent) t.select(parent, true); }
      break;
    case 'Enter': await t.enter(item, isContainer); break;
    default:
      if (!t.other || !(await t.other(ev.key))) return;
  }
  ev.preventDefault();
}
