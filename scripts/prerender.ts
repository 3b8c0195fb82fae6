// Second step of `npm run build`: renders the screens of client/src/prerender/frames.tsx with a
// Vite SSR build of that module and writes them into client/dist/index.html as templates, with the
// script (client/src/prerender/show-frame.js) that puts the visitor's one into #root.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Rolldown } from 'vite';

type FramesModule = typeof import('../client/src/prerender/frames.tsx');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT = path.join(ROOT, 'client');
const DIST = path.join(CLIENT, 'dist');
// Inside the project so the SSR bundle's imports of react & co. resolve from node_modules.
const SSR_OUT = path.join(ROOT, 'node_modules', '.cache', 'prerender');
const ROOT_ELEMENT = '<div id="root"></div>';

async function loadFrames(): Promise<FramesModule> {
  const result = await build({
    configFile: path.join(CLIENT, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      ssr: path.join(CLIENT, 'src', 'prerender', 'frames.tsx'),
      outDir: SSR_OUT,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const entry = outputs.flatMap((o) => o.output).find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
  if (!entry) throw new Error('the prerender build produced no entry chunk');
  return (await import(pathToFileURL(path.join(SSR_OUT, entry.fileName)).href)) as FramesModule;
}

/** Writes show-frame.js as a content-hashed asset (cached like the rest); answers its URL. */
function writeShowFrameScript(): string {
  const source = readFileSync(path.join(CLIENT, 'src', 'prerender', 'show-frame.js'));
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
  const file = `assets/show-frame-${hash}.js`;
  writeFileSync(path.join(DIST, file), source);
  return `/${file}`;
}

function templates(frames: FramesModule): string {
  return frames.PRERENDERED_ROUTES.map(
    (route) => `<template data-prerendered-route="${route}">${frames.renderFrame(route)}</template>`,
  ).join('\n    ');
}

/**
 * The first paint needs the stylesheet and show-frame.js, not the app's modules: ask for those
 * first, so they are not queued behind the larger JavaScript files.
 */
function firstPaintFirst(html: string, showFrameUrl: string): string {
  const moduleScript = html.indexOf('<script type="module"');
  if (moduleScript === -1) throw new Error('client/dist/index.html has no module script');
  const stylesheet = /\n[ \t]*(<link rel="stylesheet"[^>]*>)/g;
  const rest = html.slice(moduleScript);
  const links = [...rest.matchAll(stylesheet)].map((match) => match[1]);
  const first = [...links, `<link rel="preload" as="script" href="${showFrameUrl}">`];
  return `${html.slice(0, moduleScript)}${first.join('\n    ')}\n    ${rest.replace(stylesheet, '')}`;
}

const frames = await loadFrames();
try {
  const indexFile = path.join(DIST, 'index.html');
  const html = readFileSync(indexFile, 'utf8');
  if (html.split(ROOT_ELEMENT).length !== 2)
    throw new Error(`client/dist/index.html needs one ${ROOT_ELEMENT}`);
  const showFrameUrl = writeShowFrameScript();
  const body = [ROOT_ELEMENT, templates(frames), `<script src="${showFrameUrl}"></script>`];
  writeFileSync(indexFile, firstPaintFirst(html.replace(ROOT_ELEMENT, body.join('\n    ')), showFrameUrl));
  console.log(`prerendered ${frames.PRERENDERED_ROUTES.join(', ')} into client/dist/index.html`);
} finally {
  rmSync(SSR_OUT, { recursive: true, force: true });
}
