/** The overlay's styles, inside its shadow root: the page's CSS cannot reach in, nor these out. */
export const STYLES = `
:host { all: initial; }
* { box-sizing: border-box; font: 13px/1.4 system-ui, sans-serif; color: #1b1f24; }
.toolbar { position: fixed; right: 12px; bottom: 12px; z-index: 2147483646; display: flex; gap: 6px; align-items: center; }
.toolbar button, .panel button { border: 1px solid #57606a; border-radius: 4px; background: #fff; padding: 4px 8px; cursor: pointer; }
button[aria-pressed="true"] { background: #0969da; color: #fff; border-color: #0969da; }
button:focus-visible, a:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
.status { background: #fff; border: 1px solid #d0d7de; border-radius: 4px; padding: 2px 6px; }
.status:empty { display: none; }
.panel { position: fixed; top: 12px; right: 12px; width: min(460px, calc(100vw - 24px)); max-height: calc(100vh - 80px); overflow: auto; z-index: 2147483647; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; box-shadow: 0 8px 24px rgba(0,0,0,.2); padding: 12px; }
.panel[hidden] { display: none; }
.panel h2 { font-weight: 600; font-size: 15px; margin: 0 0 8px; }
.panel h3 { font-weight: 600; margin: 12px 0 4px; }
.panel dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 8px; margin: 0; }
.panel dt { color: #57606a; }
.panel dd { margin: 0; overflow-wrap: anywhere; }
.panel table { border-collapse: collapse; width: 100%; }
.panel td, .panel th { border-bottom: 1px solid #eaeef2; padding: 2px 4px; text-align: left; vertical-align: top; }
.state-published { color: #1a7f37; } .state-pending { color: #9a6700; } .state-missing { color: #57606a; } .state-rejected { color: #cf222e; }
.over { color: #cf222e; font-weight: 600; }
.panel textarea, .panel select { width: 100%; margin: 2px 0; border: 1px solid #d0d7de; border-radius: 4px; padding: 4px; }
.panel ul { margin: 0; padding-left: 18px; }
.issue { border-top: 1px solid #eaeef2; padding: 6px 0; list-style: none; margin-left: -18px; }
.error { color: #cf222e; }
.close { float: right; }
.layer { position: absolute; left: 0; top: 0; width: 0; height: 0; z-index: 2147483645; pointer-events: none; }
.outline { position: absolute; pointer-events: none; outline: 2px dashed #cf222e; outline-offset: 1px; }
.outline.overflow { outline-color: #bf8700; }
`
