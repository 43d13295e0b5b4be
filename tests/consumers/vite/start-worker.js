const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  for (const line of data) console.log(...line);
};
worker.postMessage(await (await fetch("data.cols")).blob());
