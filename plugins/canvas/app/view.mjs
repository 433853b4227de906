// Builds the Canvas page's parts as DOM trees (no framework): the instance
// list, one instance's UI (meta, forms, actions) and its history. The page
// (index.mjs) owns the state and calls these on every change.
import { whoOf } from './text.mjs';

/** An element with attributes (`class`, `text`, `on<event>`, `data-*`, properties) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'for' || name === 'title') node.setAttribute(name, String(value));
    else node[name] = value;
  }
  node.append(...children.flat().filter((child) => child !== undefined && child !== null && child !== false));
  return node;
}

export const card = (title, extra, body, attrs = {}) => el('section', { class: 'cv-card', ...attrs }, el('div', { class: 'cv-card-head' }, el('span', { text: title }), extra), body);

const statusTag = (t, status) => el('span', { class: `cv-tag ${status === 'submitted' ? 'cv-tag-success' : ''}`, text: t.status[status] ?? status, 'data-testid': 'canvas-status' });

export function instanceList(t, instances, selected, onSelect) {
  if (instances.length === 0) return el('div', { class: 'cv-empty', text: t.noInstances });
  return el(
    'ul',
    { class: 'cv-list', 'data-testid': 'canvas-instances' },
    instances.map((instance) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            class: 'cv-list-item',
            'aria-current': instance.instance_id === selected ? 'true' : 'false',
            'data-testid': `canvas-instance-${instance.instance_id}`,
            onclick: () => onSelect(instance.instance_id),
          },
          el('div', { class: 'cv-row' }, el('span', { class: 'cv-name', text: instance.instance_id }), statusTag(t, instance.status)),
          el('div', { class: 'cv-muted cv-small', text: `${t.counts(instance.blocks_count, instance.actions_count)} · ${t.revision(instance.revision)}` }),
        ),
      ),
    ),
  );
}

function steps(t, step) {
  if (step.total <= 1) return undefined;
  const row = el('div', { class: 'cv-steps', 'aria-label': t.step(step.current, step.total), 'data-testid': 'canvas-step' });
  for (let n = 1; n <= Math.min(step.total, 10); n++) {
    if (n > 1) row.append(el('span', { class: `cv-step-line ${n <= step.current ? 'cv-step-line-done' : ''}` }));
    row.append(el('span', { class: `cv-step ${n < step.current ? 'cv-step-done' : n === step.current ? 'cv-step-current' : ''}`, text: n < step.current ? '✓' : String(n) }));
  }
  return row;
}

const optionsOf = (field) => field.options.map((option) => (typeof option === 'string' ? { label: option, value: option } : option));

/**
 * One form field bound to `value`; `onInput(value)` gets the typed value
 * (a number or null for number fields, a boolean for checkboxes).
 */
function fieldControl(t, field, id, value, onInput) {
  const common = { id, name: field.key, 'data-field': id, 'data-testid': `canvas-field-${field.key}`, required: field.required === true };
  switch (field.type) {
    case 'checkbox':
      return el(
        'label',
        { class: 'cv-check' },
        el('input', { ...common, type: 'checkbox', checked: value === true, onchange: (event) => onInput(event.target.checked) }),
        el('span', { text: field.label }),
      );
    case 'textarea':
      return el('textarea', {
        ...common,
        class: 'cv-input',
        rows: field.rows ?? 3,
        placeholder: field.placeholder ?? '',
        value: value == null ? '' : String(value),
        oninput: (event) => onInput(event.target.value),
      });
    case 'select': {
      const select = el(
        'select',
        { ...common, class: 'cv-input', onchange: (event) => onInput(event.target.value === '' ? null : event.target.value) },
        el('option', { value: '', text: field.placeholder ?? t.choose }),
        optionsOf(field).map((option) => el('option', { value: option.value, text: option.label })),
      );
      select.value = value == null ? '' : String(value);
      return select;
    }
    case 'number':
      return el('input', {
        ...common,
        class: 'cv-input',
        type: 'number',
        min: field.min,
        max: field.max,
        step: field.step ?? 'any',
        placeholder: field.placeholder ?? '',
        value: typeof value === 'number' ? String(value) : '',
        oninput: (event) => onInput(event.target.value === '' || Number.isNaN(event.target.valueAsNumber) ? null : event.target.valueAsNumber),
      });
    default:
      return el('input', {
        ...common,
        class: 'cv-input',
        type: 'text',
        placeholder: field.placeholder ?? '',
        value: value == null ? '' : String(value),
        oninput: (event) => onInput(event.target.value),
      });
  }
}

/**
 * The selected instance: its meta, its forms (each field showing the user's
 * unsent input over the stored value) and its actions.
 * @param {{ t, instanceId, revision, schema, values: (bind, key) => unknown, isDirty: (bind, key) => boolean, fieldErrors: Map<string, string>, error?: { code, message }, sending?: string, unsaved: number, onInput, onAction }} view
 */
export function instanceView(view) {
  const { t, schema } = view;
  const header = el(
    'div',
    { class: 'cv-meta' },
    el('span', { class: 'cv-tag cv-tag-primary', text: t.revision(view.revision), 'data-testid': 'canvas-revision' }),
    statusTag(t, schema.meta.status),
    el('span', { class: 'cv-muted cv-small', text: t.step(schema.meta.step.current, schema.meta.step.total) }),
  );
  const body = el('div', { class: 'cv-card-body' });
  const alert = view.error
    ? el('div', { class: 'cv-alert', role: 'alert', 'data-testid': 'canvas-error' }, el('span', { class: 'cv-alert-code', text: view.error.code }), el('span', { text: view.error.message }))
    : undefined;
  const blocks = schema.blocks.map((block) =>
    el(
      'div',
      { class: 'cv-block', 'data-block': block.id },
      block.props.title ? el('h3', { class: 'cv-block-title', text: block.props.title }) : undefined,
      block.props.fields.map((field) => {
        const id = `${block.bind}.${field.key}`;
        const error = view.fieldErrors.get(id);
        const wrapper = el('div', { class: `cv-field ${view.isDirty(block.bind, field.key) ? 'cv-dirty' : ''}`, 'data-testid': `canvas-field-wrap-${field.key}` });
        const control = fieldControl(t, field, id, view.values(block.bind, field.key), (value) => view.onInput(block.bind, field.key, value, wrapper));
        if (error) (control.querySelector?.('input') ?? control).classList.add('cv-input-error');
        if (field.type !== 'checkbox') wrapper.append(el('label', { class: `cv-label ${field.required ? 'cv-required' : ''}`, for: id, text: field.label }));
        wrapper.append(control);
        if (error) wrapper.append(el('div', { class: 'cv-field-error', text: error }));
        return wrapper;
      }),
    ),
  );
  const unsaved = el('div', { class: 'cv-muted cv-small', 'data-testid': 'canvas-unsaved', text: view.unsaved > 0 ? t.unsaved(view.unsaved) : '' });
  const actions = schema.actions.length
    ? el(
        'div',
        { class: 'cv-actions' },
        schema.actions.map((action) =>
          el('button', {
            type: 'button',
            class: `cv-btn ${action.style === 'primary' ? 'cv-btn-primary' : action.style === 'danger' ? 'cv-btn-danger' : ''}`,
            text: view.sending === action.id ? t.sending : action.label,
            disabled: view.sending !== undefined,
            'data-testid': `canvas-action-${action.id}`,
            'data-style': action.style,
            onclick: () => view.onAction(action),
          }),
        ),
      )
    : undefined;
  body.append(...[alert, steps(t, schema.meta.step), ...blocks, schema.blocks.length ? undefined : el('div', { class: 'cv-empty', text: t.noBlocks }), actions, unsaved].filter(Boolean));
  return card(schema.meta.pageKey === view.instanceId ? view.instanceId : `${view.instanceId} · ${schema.meta.pageKey}`, header, body, {
    id: 'canvas-view',
    'data-testid': 'canvas-view',
    'data-instance': view.instanceId,
    'data-revision': String(view.revision),
  });
}

const short = (value, max = 80) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

export function patchLine(patch) {
  if (!patch || typeof patch !== 'object') return short(JSON.stringify(patch) ?? String(patch));
  const value = Object.hasOwn(patch, 'value') ? ` = ${JSON.stringify(patch.value)}` : '';
  return short(`${patch.op} ${patch.path}${value}`);
}

const timeOf = (t, iso) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleTimeString(t.dateLocale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
};

export function historyList(t, entries) {
  if (entries.length === 0) return el('div', { class: 'cv-empty', text: t.noHistory });
  return el(
    'ul',
    { class: 'cv-history-list', 'data-testid': 'canvas-history' },
    entries.map((entry) => {
      const ok = entry.result.status === 'success';
      // A page's own calls run in a conversation of the host's making (ui-…): it names nothing the user knows.
      const conversation = entry.caller.kind === 'page' ? undefined : entry.caller.conversationId;
      const patches = Array.isArray(entry.patches) ? entry.patches.map(patchLine) : [`${entry.patches.count} patches`, ...entry.patches.ops.slice(0, 5)];
      return el(
        'li',
        { class: 'cv-history-item', 'data-testid': 'canvas-history-item', 'data-caller': entry.caller.kind, 'data-status': entry.result.status },
        el(
          'div',
          { class: 'cv-history-head' },
          el('span', { class: 'cv-who', text: whoOf(t, entry.caller), title: conversation ? `${t.conversation} ${conversation}` : undefined, 'data-testid': 'canvas-history-who' }),
          el('span', { class: `cv-tag ${ok ? 'cv-tag-success' : 'cv-tag-error'}`, text: ok ? t.ok(entry.result.revision) : entry.result.code, 'data-testid': 'canvas-history-result' }),
        ),
        el('div', {
          class: 'cv-muted cv-small',
          text: [timeOf(t, entry.at), entry.kind === 'patch' ? undefined : t.kind[entry.kind], conversation ? `${t.conversation} ${short(conversation, 24)}` : undefined].filter(Boolean).join(' · '),
        }),
        patches.length
          ? el(
              'ul',
              { class: 'cv-patches' },
              patches.map((line) => el('li', { class: 'cv-code', text: line })),
            )
          : undefined,
        ok ? undefined : el('div', { class: 'cv-history-error', text: entry.result.message }),
      );
    }),
  );
}
