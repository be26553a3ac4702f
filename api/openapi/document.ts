import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { secureHeaders } from 'hono/secure-headers';
import type { App } from '../app-env.js';
import { jsonAnswer } from '../routes/answer.js';
import { openApiDocument } from './openapi-document.js';

/**
 * `GET /v1/openapi.json` (OpenAPI 3.1 of every route) and `GET /docs`, the reference rendered by
 * Swagger UI. Its script and style are served from the installed package, never from a CDN, so
 * the page works on a closed network. (Scalar's browser bundle needs Node 22 or 200 MB of
 * dependencies; swagger-ui-dist is one self-contained package.)
 */
export function registerDocumentation(app: App, publicBaseUrl: string): void {
  let document: object | undefined;
  app.get('/v1/openapi.json', async (c) =>
    jsonAnswer(c, (document ??= await openApiDocument(app, publicBaseUrl)), 200),
  );

  const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const asset = (file: string, type: string) => {
    const content = readFileSync(join(assets, file));
    return () => new Response(content, { headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' } });
  };
  // The page runs no inline script, so its policy allows scripts from this origin alone; Swagger UI
  // sets style attributes and shows data: images, and fetches the document from here.
  app.use(
    '/docs/*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
  app.get('/docs/swagger-ui.css', asset('swagger-ui.css', 'text/css; charset=utf-8'));
  app.get('/docs/swagger-ui-bundle.js', asset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'));
  app.get('/docs/reference.js', (c) => c.body(DOCS_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/docs', (c) => c.html(DOCS_PAGE));
}

const DOCS_SCRIPT =
  "window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true });\n";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Tally API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/reference.js"></script>
</body>
</html>`;
