// Headless Chromium for the browser benchmarks: Debian's /usr/bin/chromium
// driven by the playwright-core pinned in tools/test/, with a page that may
// reach only the local server. Used by bench/browser/run.mjs and
// bench/paired.mjs.

import path from "node:path";
import { createRequire } from "node:module";

export function playwright(project) {
  const require = createRequire(path.join(project, "tools", "test", "package.json"));
  return { chromium: require("playwright-core").chromium, version: require("playwright-core/package.json").version };
}

/** Launches Chromium (Playwright gives it a temporary user-data-dir of its own, removed on close). */
export function launch(project) {
  return playwright(project).chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--headless", `--js-flags=--expose-gc ${process.env.V8_FLAGS ?? ""}`.trim(), "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Opens bench/browser/ with `query` in `page` and waits for its result
 * (`window.benchResult`); throws on `window.benchError` or an uncaught page
 * error. (`localOnly` keeps the page to `base`.)
 */
export async function runPage(page, base, query) {
  let onError;
  const pageError = new Promise((_, reject) => page.on("pageerror", (onError = (e) => reject(new Error(`page error: ${e.message}`)))));
  try {
    await page.goto(new URL(`bench/browser/?${query}`, base).href);
    await Promise.race([pageError, page.waitForFunction(() => window.benchResult || window.benchError, null, { timeout: 0, polling: 500 })]);
    const error = await page.evaluate(() => window.benchError);
    if (error) throw new Error(`browser bench failed: ${error}`);
    return await page.evaluate(() => window.benchResult);
  } finally {
    page.off("pageerror", onError);
  }
}

/** Routes every request of `page` away unless it goes to `base`. */
export const localOnly = (page, base) => page.route("**/*", (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
