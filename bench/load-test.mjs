// Many clients at once against a keeper's HTTP address, through autocannon. The load it makes
// costs the machine little (about 80 µs of CPU a request here, where node:http's own client spent
// about 190): on a machine of two cores the client's CPU is taken from the keepers it measures,
// so the lighter the client, the more the figure is the keeper's.
import autocannon from 'autocannon';

/**
 * `clients` connections kept alive to `url`, each asking one request at a time for `seconds`;
 * `make()` gives each request afresh: { method, path, headers?, body? } (a random record, a new
 * Idempotency-Key). Resolves with the requests answered a second. An answer that is not 2xx, an
 * error or a timeout fails it: a figure of refusals is no figure.
 */
export async function requestsPerSecond({ url, token, clients, seconds, make }) {
  const result = await autocannon({
    url,
    connections: clients,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
    requests: [{
      setupRequest: (req) => {
        const made = make();
        return { ...req, ...made, headers: { ...req.headers, ...made.headers } };
      },
    }],
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result['2xx'] / result.duration;
}
