/**
 * The viewer's only stylesheet: system fonts, contrast of at least 4.5:1 in light and dark,
 * a visible focus ring, one column on a phone.
 */
export const STYLESHEET = `
:root { color-scheme: light dark; --text: #1b1b1b; --muted: #4a4a4a; --background: #ffffff; --panel: #f3f4f6; --line: #c9ccd1; --link: #0b57d0; --focus: #b45309; --ok: #116329; --warn: #7a4d00; --bad: #a40e26; }
@media (prefers-color-scheme: dark) { :root { --text: #ececec; --muted: #b8b8b8; --background: #16181c; --panel: #23262d; --line: #444a55; --link: #8ab4f8; --focus: #fbbf24; --ok: #6fdd8b; --warn: #f2cc60; --bad: #ff8b8b; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--background); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, main:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--background); padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
.top { padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { margin: 0; font-weight: 700; }
.top nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .25rem 0; padding: 0; }
.top nav a { display: inline-block; padding: .25rem 0; font-weight: 600; text-decoration: none; }
.top nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: .3em; text-decoration-thickness: 2px; }
.where { margin: 0; color: var(--muted); font-size: .875rem; overflow-wrap: anywhere; }
.path { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .8125rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .5rem 1rem; align-items: end; padding: .75rem; background: var(--panel); border: 1px solid var(--line); border-radius: .375rem; }
.filters .search { grid-column: 1 / -1; }
label { display: block; font-weight: 600; font-size: .875rem; margin-bottom: .125rem; }
input, select, button { font: inherit; color: inherit; }
input[type="search"], input[type="text"], select { width: 100%; padding: .375rem .5rem; border: 1px solid var(--muted); border-radius: .25rem; background: var(--background); }
button { padding: .375rem .875rem; border: 1px solid var(--muted); border-radius: .25rem; background: var(--panel); cursor: pointer; font-weight: 600; }
button.danger { border-color: var(--bad); color: var(--bad); }
.count { color: var(--muted); }
.entries { list-style: none; padding: 0; margin: 0; }
.entries > li { padding: .625rem 0; border-bottom: 1px solid var(--line); }
.entries .name { font-weight: 600; }
.meta { color: var(--muted); font-size: .875rem; }
.desc { margin: .25rem 0 0; }
.tag { display: inline-block; padding: 0 .375rem; border: 1px solid var(--line); border-radius: .25rem; font-size: .8125rem; }
pre.entry { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); border: 1px solid var(--line); border-radius: .375rem; padding: .75rem; font-size: .875rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; }
.actions form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.notice { padding: .5rem .75rem; border-radius: .375rem; border: 1px solid; }
.notice.done { border-color: var(--ok); color: var(--ok); }
.notice.error { border-color: var(--bad); color: var(--bad); }
.status { font-weight: 700; text-transform: uppercase; font-size: .8125rem; }
.status.ok { color: var(--ok); } .status.warning { color: var(--warn); } .status.problem { color: var(--bad); }
.injection { padding: .625rem 0; border-bottom: 1px solid var(--line); }
.injection ul { margin: .25rem 0 0; padding-left: 1.25rem; }
.pages { display: flex; gap: 1rem; margin: 1rem 0; }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .375rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .875em; overflow-wrap: anywhere; }
@media (max-width: 40rem) { main { padding: .75rem; } dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .5rem; } }
`;
