import * as http from 'node:http';

/**
 * A GET of a url at a view's site (`http://<site>.localhost:<port>/…`, see
 * src/serve/viewServer.ts), as a browser makes it: to 127.0.0.1 with the
 * site's name in the Host header, since this process's resolver need not
 * know `*.localhost` the way browsers do.
 */
export function getAtSite(url: string, method = 'GET', port?: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const parsed = new URL(url);
  return new Promise((resolve, reject) => {
    // `port`: where the request goes when it is not the url's (a Host the server must refuse).
    const request = http.request({ host: '127.0.0.1', port: port ?? parsed.port, path: `${parsed.pathname}${parsed.search}`, method, headers: { host: parsed.host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
