// The console's component specs run in jsdom, which has no Fetch API (Response, Headers, Request)
// nor TextEncoder/TextDecoder and streams. The browser has them; so does Node: these are Node's
// own, handed to the jsdom window, so a spec answers the console's requests with real Response
// objects (the HTTP boundary) and @dts/client reads them as it reads a browser's.
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = ['Response', 'Request', 'Headers', 'TextEncoder', 'TextDecoder', 'ReadableStream', 'WritableStream', 'TransformStream', 'structuredClone'];

class ConsoleEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) if (this.global[name] === undefined) this.global[name] = globalThis[name];
  }
}

module.exports = ConsoleEnvironment;
