export { startViewer } from "./start-viewer.js";
export type { RunningViewer, ViewerOptions } from "./start-viewer.js";
export { checkRequest, tokenCookieName } from "./check-request.js";
export type { RequestHead, RequestVerdict } from "./check-request.js";
export { escapeHtml, html, SafeHtml } from "./html.js";
export { openInBrowser } from "./open-in-browser.js";
