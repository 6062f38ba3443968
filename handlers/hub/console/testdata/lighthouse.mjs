// lighthouse.mjs audits several pages, one after the other, so that Node
// and the browser start once rather than once a page. It runs with
// static/ as its working directory, where npm installed Lighthouse.
// Arguments: the report directory, then NAME=URL pairs. LIGHTHOUSE_HEADERS
// holds the JSON of headers for every page but those named in
// LIGHTHOUSE_PUBLIC (comma-separated) and LIGHTHOUSE_OTHER, which are
// audited with the headers of LIGHTHOUSE_OTHER_HEADERS (a second user's
// session); CHROME_PATH the browser.
//
// The public pages are audited in a browser of their own: a page a
// visitor opens without a session may give the browser a cookie of its
// own, which it would send in place of the one the headers carry.
import fs from "node:fs";
import path from "node:path";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const [dir, ...pages] = process.argv.slice(2);
const headers = JSON.parse(process.env.LIGHTHOUSE_HEADERS || "{}");
const open = new Set((process.env.LIGHTHOUSE_PUBLIC || "").split(",").filter(Boolean));
const other = new Set((process.env.LIGHTHOUSE_OTHER || "").split(",").filter(Boolean));
const otherHeaders = JSON.parse(process.env.LIGHTHOUSE_OTHER_HEADERS || "{}");
const named = pages.map((page) => {
  const at = page.indexOf("=");
  return { name: page.slice(0, at), url: page.slice(at + 1) };
});

async function audit(list, extraHeaders) {
  if (list.length === 0) {
    return;
  }
  const chrome = await chromeLauncher.launch({
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    for (const { name, url } of list) {
      const began = Date.now();
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["accessibility", "best-practices"],
        disableFullPageScreenshot: true,
        extraHeaders,
      });
      fs.writeFileSync(path.join(dir, name + ".json"), result.report);
      console.log(`${name} ${Date.now() - began}`);
    }
  } finally {
    await chrome.kill();
  }
}

await audit(named.filter((p) => open.has(p.name)), undefined);
await audit(named.filter((p) => !open.has(p.name) && !other.has(p.name)), headers);
// The second user's pages, in a browser of their own too: the first
// session's cookie must not stand in for theirs.
await audit(named.filter((p) => other.has(p.name)), otherHeaders);
