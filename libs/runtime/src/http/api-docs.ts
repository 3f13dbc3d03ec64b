import path from 'node:path';
import express, { Router } from 'express';

/** Where the swagger-ui-dist package keeps its files: served from here, never from a CDN. */
const swaggerUiFiles = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title}</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-initializer.js"></script>
</body>
</html>
`;

/** Replaces the package's initializer, which points at a demo document on the internet. */
const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis] });
};
`;

/** `GET /openapi.json` (the document) and `GET /docs` (Swagger UI over it, from the npm package's own files). */
export function apiDocsRoutes(document: object, title: string): Router {
  const router = Router();
  const json = JSON.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page(title));
  });
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(initializer);
  });
  router.use('/docs', express.static(swaggerUiFiles, { index: false, maxAge: '1h' }));
  return router;
}
