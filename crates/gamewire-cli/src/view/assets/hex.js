// gamewire view: the hex pane. When a value is selected in the tree (the event
// `gamewire:select` from app.js), it asks the server where that value's bytes are in the
// file (or in its decompressed or decrypted data, which it then says) and shows them.
// No format rule lives here: the library finds the bytes.

const $ = (id) => document.getElementById(id);
const token = document.querySelector('meta[name="gamewire-token"]')?.content
  || new URLSearchParams(location.search).get('token') || '';

let asked = 0; // the latest request: an older answer is dropped

// Offsets as `28 (0x1c)`.
const number = (n) => `${n} (0x${n.toString(16)})`;

// Rows of 16 bytes: offset, hex, printable text.
export function dump(hex, offset) {
  const rows = [];
  for (let i = 0; i < hex.length; i += 32) {
    const bytes = [];
    for (let j = i; j < Math.min(i + 32, hex.length); j += 2) bytes.push(parseInt(hex.slice(j, j + 2), 16));
    const at = (offset + i / 2).toString(16).padStart(8, '0');
    const h = bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ').padEnd(47, ' ');
    const t = bytes.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    rows.push(`${at}  ${h}  ${t}`);
  }
  return rows.join('\n');
}

async function show(file, pointer) {
  const me = ++asked;
  const pane = $('hex');
  if (!pane) return;
  pane.hidden = false;
  pane.setAttribute('aria-busy', 'true');
  let r;
  try {
    const resp = await fetch('/api/bytes?' + new URLSearchParams({ file, pointer }), {
      headers: { 'X-Gamewire-Token': token },
    });
    r = await resp.json();
    if (!resp.ok) r = { available: false, reason: r.error || resp.statusText };
  } catch (e) {
    r = { available: false, reason: e.message };
  }
  if (me !== asked) return;
  const where = $('hex-where');
  const out = $('hex-dump');
  if (!r.available) {
    where.textContent = `Bytes: ${r.reason}`;
    out.textContent = '';
  } else {
    const parts = [`Offset ${number(r.offset)}, length ${r.length} bytes, in ${r.space}`];
    // A bit-packed format (KingsIsle): the value starts at a bit of its first byte.
    if (r.bits !== undefined) {
      parts.push(`(${r.bits} bits from bit ${r.bit} of the first byte, least significant first)`);
    }
    // A text format (O3DE JSON, KingsIsle XML): where the value starts on the page.
    if (r.line !== undefined) parts.push(`(line ${r.line}, column ${r.column})`);
    // A value of an entry stored as it is in its pack or archive: where it is in the
    // archive file too.
    if (r.archive_offset !== undefined) parts.push(`(offset ${number(r.archive_offset)} in the archive file)`);
    if (!r.own) parts.push('(the bytes of the value this is a part of)');
    if (r.note) parts.push(`(${r.note})`);
    if (r.shown < r.length) parts.push(`(first ${r.shown} shown)`);
    where.textContent = parts.join(' ');
    out.textContent = dump(r.hex, r.offset);
  }
  pane.setAttribute('aria-busy', 'false');
}

document.addEventListener('gamewire:select', (ev) => {
  show(ev.detail.file, ev.detail.pointer);
});
