// gamewire view: editors fitting a value's type. The type comes from the server with
// each listed value (`"type"`), as the library gives it: an integer's range, a float's
// width, an enum's option names, a vector's or colour's components. No format rule
// lives here; these only read those types and build JSON text for the edit.

// The text of a type for the detail pane: `unsigned char, 0 to 255`.
export function typeText(t) {
  switch (t.kind) {
    case 'integer': return `${t.name}, ${t.min} to ${t.max}`;
    case 'float': return `${t.name}, ${t.bits}-bit float`;
    case 'enum': return `${t.name}${t.flags ? ', flags' : ''}: ${t.options.length} options`;
    case 'components': return `${t.name}: ${t.components.map((c) => c.label).join(', ')}`;
    default: return t.name || t.kind;
  }
}

const F32_MAX = 3.4028234663852886e38;

// The JSON text for `text` typed into an editor of type `t`, or an error message (the
// library's wording: the server refuses the same values).
export function checkTyped(t, text) {
  const s = text.trim();
  switch (t.kind) {
    case 'integer': {
      if (!/^-?(0|[1-9][0-9]*)$/.test(s)) return { error: `${JSON.stringify(text)} is not an integer, and ${t.name} holds integers` };
      const n = BigInt(s);
      if (n < BigInt(t.min) || n > BigInt(t.max)) return { error: `${s} is outside ${t.name}'s range (${t.min} to ${t.max})` };
      return { json: s };
    }
    case 'float': {
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(s) || !Number.isFinite(Number(s))) {
        return { error: `${JSON.stringify(text)} is not a finite number, and ${t.name} is a float` };
      }
      if (t.bits === 32 && Math.abs(Number(s)) > F32_MAX) {
        return { error: `${s} is outside ${t.name}'s range (a 32-bit float holds at most 3.4028235e38)` };
      }
      // A float stays a float: written with a decimal point or an exponent.
      return { json: /[.eE]/.test(s) ? s : `${s}.0` };
    }
    case 'enum': {
      const names = t.flags ? s.split('|').map((x) => x.trim()).filter(Boolean) : [s];
      const bad = names.find((x) => !t.options.includes(x));
      if (bad !== undefined) return { error: `${JSON.stringify(bad)} is not an option of ${t.name} (${t.options.join(', ')})` };
      return { json: JSON.stringify(names.join('|')) };
    }
    default: return { error: `a ${t.kind} is not edited here` };
  }
}

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...kids);
  return e;
}

// The editor of a scalar whose type is known (an integer, a float, an enum), or null.
// `apply(jsonText)` makes the edit; `showError` says why not.
export function scalarTypedEditor(n, { apply, showError, onEscape }) {
  const t = n.type;
  if (!t || !['integer', 'float', 'enum'].includes(t.kind)) return null;
  const label = el('label', { htmlFor: 'value-input', textContent: `Value (${typeText(t)})` });
  let input;
  const current = n.kind === 'string' ? n.value : (n.text ?? String(n.value));
  if (t.kind === 'enum' && !t.flags) {
    input = el('select');
    const names = [...t.options];
    // A value the options do not name (a number) is kept as a choice.
    if (!names.includes(current)) names.unshift(current);
    for (const o of names) {
      input.append(el('option', { value: o, textContent: o, selected: o === current }));
    }
  } else {
    input = el('input', { type: 'text', value: current });
    if (t.kind === 'enum') input.setAttribute('list', 'enum-options');
    else input.inputMode = t.kind === 'integer' ? 'numeric' : 'decimal';
  }
  input.id = 'value-input';
  const out = [label, input];
  if (t.kind === 'enum' && t.flags) {
    const list = el('datalist', { id: 'enum-options' });
    for (const o of t.options) list.append(el('option', { value: o }));
    out.push(list, el('small', { textContent: `Options, joined by |: ${t.options.join(', ')}` }));
  }
  const go = () => {
    // Unchanged (an enum the data holds as a number stays one unless a name is picked).
    if (input.value === current) return;
    const r = checkTyped(t, input.value);
    if (r.error) { showError(r.error); return; }
    apply(r.json);
  };
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); go(); }
    else if (ev.key === 'Escape') onEscape();
  });
  const b = el('button', { type: 'button', textContent: 'Apply' });
  b.addEventListener('click', go);
  out.push(b);
  return out;
}

// A CSS colour for a colour's component values (`unit`: floats 0 to 1; `byte`: 0 to 255).
export function cssColour(form, values) {
  const [r, g, b, a] = values.map(Number);
  const byte = (x) => Math.round(Math.min(255, Math.max(0, form === 'unit' ? x * 255 : x)));
  const alpha = a === undefined || Number.isNaN(a) ? 1 : Math.min(1, Math.max(0, form === 'unit' ? a : a / 255));
  return `rgba(${byte(r)}, ${byte(g)}, ${byte(b)}, ${Number(alpha.toFixed(3))})`;
}

// The editor of a value with components (a vector, colour, rectangle, transform): one
// labelled input per component, and a swatch for a colour. `value` is the value as
// JSON; `apply(ops)` makes the edit: [{pointer (relative), json}] for the components
// changed.
export function componentEditor(n, value, { apply, showError, onEscape }) {
  const t = n.type;
  const box = el('fieldset', { className: 'components' });
  box.append(el('legend', { textContent: `${t.name} by component` }));
  const inputs = [];
  const at = (p) => p.slice(1).split('/').reduce((v, k) => (v == null ? v : v[k]), value);
  t.components.forEach((c, i) => {
    const id = `component-${i}`;
    const v = at(c.pointer);
    const input = el('input', { type: 'text', id, value: v === undefined ? '' : String(v) });
    // A float shown without its decimal point still reads as a float.
    if (c.type.kind === 'float' && Number.isInteger(v)) input.value = `${v}.0`;
    input.inputMode = c.type.kind === 'integer' ? 'numeric' : 'decimal';
    input.title = typeText(c.type);
    input.dataset.original = input.value;
    const row = el('div', { className: 'component' },
      el('label', { htmlFor: id, textContent: c.label }), input);
    box.append(row);
    inputs.push([c, input]);
  });
  let swatch = null;
  const paint = () => {
    if (!swatch) return;
    const colour = cssColour(t.colour, inputs.map(([, i]) => i.value));
    swatch.style.background = colour;
    swatch.setAttribute('aria-label', `Colour ${colour}`);
  };
  if (t.colour) {
    swatch = el('div', { className: 'swatch' });
    swatch.setAttribute('role', 'img');
    box.append(swatch);
    paint();
  }
  const go = () => {
    const ops = [];
    for (const [c, input] of inputs) {
      if (input.value === input.dataset.original) continue;
      const r = checkTyped(c.type, input.value);
      if (r.error) { showError(`${c.label}: ${r.error}`); input.focus(); return; }
      ops.push({ pointer: c.pointer, json: r.json });
    }
    if (ops.length) apply(ops);
  };
  for (const [, input] of inputs) {
    input.addEventListener('input', paint);
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') { ev.preventDefault(); go(); }
      else if (ev.key === 'Escape') onEscape();
    });
  }
  const b = el('button', { type: 'button', textContent: 'Apply' });
  b.addEventListener('click', go);
  box.append(b);
  return [box];
}
