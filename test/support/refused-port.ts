/**
 * A loopback port nothing listens on, for the tests of a refused connection (Redis or an
 * upstream away). Fixed rather than picked: a port picked free and closed again may be taken by
 * the time the test connects. Below 1024 no port-0 listener can land (the OS gives those from
 * the ephemeral range), no test helper chooses it (own-redis-server.ts picks from 20000 up), and
 * 9 is the discard service, which nothing here runs. Other loopback addresses (127.0.0.2, ...)
 * give more such endpoints on the same port.
 */
export const REFUSED_PORT = 9;
