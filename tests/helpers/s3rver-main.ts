// The S3 server process s3-server.ts starts: s3rver on 127.0.0.1:<port>, keeping its objects in
// <directory>, with <bucket> made. Its own process because s3rver's listing tokens use DES, which
// Node's OpenSSL 3 only has with --openssl-legacy-provider (a flag for the whole process).
import S3rver from 's3rver';

const [port, directory, bucket] = process.argv.slice(2);
if (!port || !directory || !bucket) throw new Error('usage: s3rver-main.ts <port> <directory> <bucket>');

const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
await server.run();
process.send!('ready');
// Gone with the test process that started it.
process.once('disconnect', () => process.exit(0));
