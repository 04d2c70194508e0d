/**
 * The key every test server seals stored secrets with (`LFK_SECRET_KEY`), as replicas share one: a
 * second server on the same database opens what the first sealed.
 */
export const TEST_SECRET_KEY = '6c666b2d746573742d7365637265742d6b65792d6e6f742d666f722d70726f64';
