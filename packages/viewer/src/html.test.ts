import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "./html.js";

describe("html", () => {
  it("escapes every value, renders nested markup as it is, and nothing for null, undefined and false", () => {
    const name = `<script>alert("x")</script>`;
    expect(html`<p title="${`" onmouseover="x`}">${name}${[html`<b>${"&"}</b>`, "<i>"]}${null}${undefined}${false}${0}</p>`.text).toBe(
      '<p title="&quot; onmouseover=&quot;x">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<b>&amp;</b>&lt;i&gt;0</p>',
    );
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that can end a text or an attribute value", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});
