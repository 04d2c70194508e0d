// The test S3 server's own process (see s3-server.ts): s3rver on 127.0.0.1, a free port, one bucket.
import S3rver from '@20minutes/s3rver';

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) throw new Error('usage: s3-server-process.ts <directory> <bucket>');

const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, vhostBuckets: false, configureBuckets: [{ name: bucket }] });

// s3rver checks SigV4 signatures against a canonical URI it rebuilds from the bucket and key, and
// drops the trailing slash of a bucket request: the AWS SDK signs `/bucket/` (ListObjectsV2,
// HeadBucket), s3rver `/bucket`, and every such request would fail with SignatureDoesNotMatch.
// Its virtual-host branch builds `/<bucket><mount path>`: with a mount path of `/` that is the path
// as sent. The signature is still checked, against the path the client really signed.
server.middleware.splice(server.middleware.length - 1, 0, (ctx, next) => {
  if (!ctx.state.vhost && /^\/[^/]+\/$/.test(ctx.path)) {
    ctx.state.vhost = true;
    ctx.mountPath = '/';
  }
  return next();
});

// s3rver reads a range's end as `end || Infinity`, so `Range: bytes=0-0` (the first byte alone)
// would answer the whole object. An end of 0 is handed over as a Number object: truthy, and 0 to
// the Math.min that follows.
const getObject = server.store.getObject.bind(server.store);
server.store.getObject = (bucket, key, options) => getObject(bucket, key, options?.end === 0 ? { ...options, end: Object(0) as number } : options);

const { port } = await server.run();
process.send?.({ port });
// The parent ends this process (SIGTERM); if the parent dies first, so does the IPC channel.
process.on('disconnect', () => process.exit(0));
