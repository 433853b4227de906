// The Canvas page's look: the window's design tokens (the page shell's
// --chatos-* variables, issue 45) on plain elements, since a page frame loads
// no framework; antd's own values where there are none (a view outside the
// shell). The bridge puts the theme on <html data-theme>, so switching it needs no render.
export const CSS = `
.cv {
  --cv-bg: var(--chatos-color-bg-layout, #f5f5f5); --cv-panel: var(--chatos-color-bg, #ffffff); --cv-text: var(--chatos-color-text, rgba(0,0,0,0.88)); --cv-muted: rgba(0,0,0,0.45);
  --cv-border: var(--chatos-color-border, #d9d9d9); --cv-split: var(--chatos-color-border-secondary, #f0f0f0); --cv-hover: var(--chatos-color-fill, rgba(0,0,0,0.04)); --cv-selected: #e6f4ff;
  --cv-primary: var(--chatos-color-primary, #1677ff); --cv-primary-hover: #4096ff; --cv-danger: var(--chatos-color-error, #ff4d4f); --cv-danger-hover: #ff7875;
  --cv-success: var(--chatos-color-success, #52c41a); --cv-success-bg: #f6ffed; --cv-success-border: #b7eb8f;
  --cv-error-bg: #fff2f0; --cv-error-border: #ffccc7; --cv-tag-bg: rgba(0,0,0,0.02); --cv-focus: rgba(5,145,255,0.1);
  --cv-shadow: 0 1px 2px 0 rgba(0,0,0,0.03), 0 1px 6px -1px rgba(0,0,0,0.02), 0 2px 4px 0 rgba(0,0,0,0.02);
  font: var(--chatos-font-size, 14px)/1.5714 var(--chatos-font-family, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Noto Sans CJK SC', sans-serif);
  color: var(--cv-text); background: var(--cv-bg); min-height: 100%; box-sizing: border-box;
}
:root[data-theme="dark"] .cv {
  --cv-bg: var(--chatos-color-bg-layout, #000000); --cv-panel: var(--chatos-color-bg, #141414); --cv-text: var(--chatos-color-text, rgba(255,255,255,0.85)); --cv-muted: rgba(255,255,255,0.45);
  --cv-border: var(--chatos-color-border, #424242); --cv-split: var(--chatos-color-border-secondary, #303030); --cv-hover: var(--chatos-color-fill, rgba(255,255,255,0.08)); --cv-selected: #111a2c;
  --cv-primary: var(--chatos-color-primary, #1668dc); --cv-primary-hover: #3c89e8; --cv-danger: var(--chatos-color-error, #dc4446); --cv-danger-hover: #e86e6b;
  --cv-success: var(--chatos-color-success, #49aa19); --cv-success-bg: #162312; --cv-success-border: #274916;
  --cv-error-bg: #2c1618; --cv-error-border: #5b2526; --cv-tag-bg: rgba(255,255,255,0.04); --cv-focus: rgba(0,60,180,0.15);
  --cv-shadow: none;
}
.cv *, .cv *::before, .cv *::after { box-sizing: border-box; }
.cv-full { display: grid; grid-template-columns: 200px minmax(0, 1fr) 300px; gap: 16px; padding: 16px; align-items: start; align-content: start; }
@media (max-width: 900px) { .cv-full { grid-template-columns: 180px minmax(0, 1fr); } .cv-history { grid-column: 1 / -1; } }
@media (max-width: 560px) { .cv-full { grid-template-columns: minmax(0, 1fr); } }
.cv-card { background: var(--cv-panel); border: 1px solid var(--cv-split); border-radius: 8px; box-shadow: var(--cv-shadow); }
.cv-card-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; min-height: 46px; padding: 0 16px; border-bottom: 1px solid var(--cv-split); font-weight: 600; }
.cv-card-body { padding: 16px; }
.cv-muted { color: var(--cv-muted); }
.cv-small { font-size: 12px; }
.cv-list { list-style: none; margin: 0; padding: 4px; }
.cv-list-item { display: block; width: 100%; text-align: left; border: 0; background: transparent; color: inherit; font: inherit; padding: 8px 12px; border-radius: 6px; cursor: pointer; }
.cv-list-item:hover { background: var(--cv-hover); }
.cv-list-item[aria-current="true"] { background: var(--cv-selected); color: var(--cv-primary); }
.cv-list-item .cv-row { display: flex; align-items: center; justify-content: space-between; gap: 6px; }
.cv-list-item .cv-name { font-weight: 500; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cv-tag { display: inline-block; padding: 0 7px; font-size: 12px; line-height: 20px; border: 1px solid var(--cv-border); border-radius: 4px; background: var(--cv-tag-bg); white-space: nowrap; color: var(--cv-text); }
.cv-tag-success { color: var(--cv-success); background: var(--cv-success-bg); border-color: var(--cv-success-border); }
.cv-tag-error { color: var(--cv-danger); background: var(--cv-error-bg); border-color: var(--cv-error-border); }
.cv-tag-primary { color: var(--cv-primary); border-color: var(--cv-primary); background: transparent; }
.cv-title { margin: 0; font-size: 16px; font-weight: 600; }
.cv-meta { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.cv-steps { display: flex; align-items: center; gap: 8px; margin: 0 0 16px; }
.cv-step { width: 24px; height: 24px; border-radius: 50%; display: inline-flex; align-items: center; justify-content: center; font-size: 12px; border: 1px solid var(--cv-border); color: var(--cv-muted); flex: none; }
.cv-step-done { border-color: var(--cv-primary); color: var(--cv-primary); }
.cv-step-current { background: var(--cv-primary); border-color: var(--cv-primary); color: #fff; }
.cv-step-line { flex: 1; height: 1px; background: var(--cv-split); min-width: 12px; max-width: 80px; }
.cv-step-line-done { background: var(--cv-primary); }
.cv-block { margin: 0 0 16px; }
.cv-block-title { margin: 0 0 12px; font-size: 14px; font-weight: 600; }
.cv-field { margin: 0 0 16px; }
.cv-label { display: block; padding: 0 0 8px; }
.cv-required::before { content: '*'; color: var(--cv-danger); margin-right: 4px; font-family: SimSun, sans-serif; }
.cv-input { width: 100%; min-height: 32px; padding: 4px 11px; font: inherit; color: var(--cv-text); background: var(--cv-panel); border: 1px solid var(--cv-border); border-radius: 6px; outline: none; transition: border-color .2s, box-shadow .2s; }
.cv-input:hover { border-color: var(--cv-primary-hover); }
.cv-input:focus { border-color: var(--cv-primary); box-shadow: 0 0 0 2px var(--cv-focus); }
textarea.cv-input { resize: vertical; }
select.cv-input { appearance: auto; }
.cv-input-error, .cv-input-error:hover, .cv-input-error:focus { border-color: var(--cv-danger); }
.cv-field-error { color: var(--cv-danger); font-size: 12px; margin-top: 4px; }
.cv-check { display: inline-flex; align-items: center; gap: 8px; cursor: pointer; }
.cv-check input { width: 16px; height: 16px; margin: 0; accent-color: var(--cv-primary); }
.cv-dirty { border-left: 2px solid var(--cv-primary); padding-left: 10px; margin-left: -12px; }
.cv-actions { display: flex; flex-wrap: wrap; gap: 8px; padding-top: 4px; }
.cv-btn { height: 32px; padding: 4px 15px; font: inherit; border-radius: 6px; border: 1px solid var(--cv-border); background: var(--cv-panel); color: var(--cv-text); cursor: pointer; box-shadow: 0 2px 0 rgba(0,0,0,0.02); transition: all .2s; }
.cv-btn:hover { color: var(--cv-primary-hover); border-color: var(--cv-primary-hover); }
.cv-btn-primary { background: var(--cv-primary); border-color: var(--cv-primary); color: #fff; box-shadow: 0 2px 0 rgba(5,145,255,0.1); }
.cv-btn-primary:hover { background: var(--cv-primary-hover); border-color: var(--cv-primary-hover); color: #fff; }
.cv-btn-danger { background: var(--cv-danger); border-color: var(--cv-danger); color: #fff; box-shadow: 0 2px 0 rgba(255,38,5,0.06); }
.cv-btn-danger:hover { background: var(--cv-danger-hover); border-color: var(--cv-danger-hover); color: #fff; }
.cv-btn[disabled] { opacity: .55; cursor: not-allowed; }
.cv-alert { padding: 8px 12px; border-radius: 8px; border: 1px solid var(--cv-error-border); background: var(--cv-error-bg); margin: 0 0 16px; overflow-wrap: anywhere; }
.cv-alert-code { font-weight: 600; margin-right: 6px; }
.cv-empty { color: var(--cv-muted); text-align: center; padding: 24px 8px; }
.cv-history-list { list-style: none; margin: 0; padding: 0; max-height: calc(100vh - 120px); overflow: auto; }
.cv-history-item { padding: 10px 16px; border-bottom: 1px solid var(--cv-split); }
.cv-history-item:last-child { border-bottom: 0; }
.cv-history-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 4px; }
.cv-who { font-weight: 500; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cv-code { font-family: SFMono-Regular, Consolas, 'Liberation Mono', Menlo, monospace; font-size: 12px; overflow-wrap: anywhere; }
.cv-patches { margin: 4px 0; padding: 0; list-style: none; }
.cv-history-error { color: var(--cv-danger); font-size: 12px; overflow-wrap: anywhere; }
.cv-live { display: inline-flex; align-items: center; gap: 6px; font-weight: 400; }
.cv-dot { width: 6px; height: 6px; border-radius: 50%; background: var(--cv-success); }
.cv-view { min-height: 0; padding: 8px; background: transparent; }
.cv-view .cv-foot { display: flex; justify-content: space-between; gap: 8px; padding: 8px 4px 0; }
.cv-compact { padding: 8px; }
.cv-panel { display: flex; flex-direction: column; gap: 8px; padding: 8px; }
.cv-panel-head { justify-content: space-between; gap: 8px; }
.cv-panel .cv-switch { width: auto; max-width: 60%; }
.cv-compact .cv-list { padding: 0; }
.cv-compact .cv-list-item { padding: 6px 8px; }
`;

/** Adds the stylesheet once per document (the CSP allows inline styles in a page frame, not inline script). */
export function installStyles(doc = document) {
  if (doc.getElementById('cv-styles')) return;
  const style = doc.createElement('style');
  style.id = 'cv-styles';
  style.textContent = CSS;
  doc.head.append(style);
}
