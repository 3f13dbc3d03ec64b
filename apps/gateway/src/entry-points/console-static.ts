import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { AppError } from '@ecomm-sync/runtime';

/** Everything the console loads comes from its own build: no CDN, no inline script (decision 0033). */
const CONSOLE_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/**
 * The web console's build (apps/console, `nx build console`) under /console: its files as they
 * are, and index.html for every other GET below /console so that client routes survive a reload.
 * /console/api is the console's API and never falls back to the page.
 */
/** The page and every client route below it (express 5 path syntax; the OpenAPI document has both). */
const CONSOLE_PAGES = ['/console', '/console/*page'];

export function consoleStaticFiles(dir: string | undefined): Router {
  const router = Router();
  const index = dir ? path.join(dir, 'index.html') : undefined;
  router.use('/console', (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api') return next();
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  // Browsers and tools ask the site's root for its icon whatever the page links: the console's icon answers
  // (a 404 from there when the console is not built: a temporary redirect, so browsers ask again later).
  router.get('/favicon.ico', (_req, res) => res.redirect(302, '/console/favicon.svg'));
  if (!dir || !index) {
    router.get(CONSOLE_PAGES, (req, _res, next) =>
      req.path.startsWith('/console/api')
        ? next()
        : next(AppError.notFound('The console is not built into this gateway: run `npx nx build console` and set CONSOLE_DIR')),
    );
    return router;
  }
  // Hashed asset names change with every build: they may be cached for good; index.html never.
  router.use('/console/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '1y', index: false }), (req, _res, next) =>
    next(AppError.notFound(`No console asset ${req.path}; the page may be older than the build: reload it`)),
  );
  router.use('/console', express.static(dir, { index: false, maxAge: 0 }));
  router.get(CONSOLE_PAGES, (req, res, next) => {
    if (req.path.startsWith('/console/api')) return next();
    if (!fs.existsSync(index)) return next(AppError.notFound('The console is not built into this gateway: run `npx nx build console`'));
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
