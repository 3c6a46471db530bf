// Stands in for react-devtools-core in the screen's bundle: Ink loads it only when DEV=true,
// and the screen never runs in that mode. Bundling the real one would cost start-up time.
export default { initialize() {}, connectToDevTools() {} };
