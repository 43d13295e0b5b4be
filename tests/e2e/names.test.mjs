// Every control a screen reader reaches has a name: on each tab of a file
// with every column type, the accessibility tree (Chromium's, through CDP)
// holds no unnamed button, field, checkbox, radio, tab or grid.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, openInspector, tab } from "./harness.mjs";

let insp;
before(async () => {
  insp = await openInspector();
  await dropFile(insp.page, path.join(corpus, "valid/all_types_small.cols"));
});
after(() => insp?.close());

const CONTROLS = new Set(["button", "textbox", "searchbox", "spinbutton", "checkbox", "radio", "combobox", "listbox", "tab", "tabpanel", "grid", "link", "slider", "switch", "menuitem"]);

async function unnamed(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const out = [];
    for (const n of nodes) {
      if (n.ignored || !CONTROLS.has(n.role?.value) || (n.name?.value || "").trim()) continue;
      const d = await cdp.send("DOM.describeNode", { backendNodeId: n.backendDOMNodeId }).catch(() => null);
      const attrs = d?.node?.attributes || [];
      const tid = attrs[attrs.indexOf("data-testid") + 1];
      out.push(`${n.role.value} <${d?.node?.nodeName?.toLowerCase()}${attrs.includes("data-testid") ? ` data-testid=${tid}` : ""}>`);
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

// The SQL tab is left to its own tests.
for (const name of ["schema", "chunks", "layout", "detail", "data", "timing"]) {
  test(`${name}: every control has an accessible name`, async () => {
    await tab(insp.page, name);
    await insp.page.waitForTimeout(300);
    assert.deepEqual(await unnamed(insp.page), []);
  });
}

test("data, with a cell selected (its row's list) and a search of the text: every control has an accessible name", async () => {
  const { page } = insp;
  await tab(page, "data");
  await page.click("[data-testid=filter-search]");
  await page.keyboard.type("item");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /where any text column/.test(document.querySelector("[data-testid=data-status]")?.textContent || ""));
  await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']");
  await page.waitForSelector("[data-testid=record-list] .record-field");
  await page.click("[data-testid=cell-panel] [data-testid=record] > summary"); // closed, then open: its controls in the tree
  await page.click("[data-testid=cell-panel] [data-testid=record] > summary");
  assert.ok((await page.$$("[data-testid=record-filter]")).length === 1, "all_types_small's 26 columns: the list's filter is there");
  assert.deepEqual(await unnamed(page), []);
});
