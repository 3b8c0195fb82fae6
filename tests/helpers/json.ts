// What a test reads back from the API or the live stream: parsed JSON whose fields the test reads
// freely, leaving it to the assertions to judge the values. The one loosely typed name in the code.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
