// The domains' layering as lint enforces it (docs/architecture.md, "What may import what"): a
// domain imports another only through the other's declared interface, its index.ts, so the
// catalogue never calls the photos' commands, an account's deletion never reaches into the
// reviews', and the search and the map do not import each other's internals.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The import rules only: the type-aware rules would want the probe files in the TypeScript project.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-restricted-paths',
});

/** The layering errors lint gives a file at `file` (in the server) importing `from`. */
async function layeringErrors(file: string, from: string): Promise<string[]> {
  const source = `import * as probe from '${from}';\nexport default probe;\n`;
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the domains', () => {
  it.each([
    ['server/catalogue/probe.ts', '../photos/commands.ts'],
    ['server/accounts/probe.ts', '../reviews/commands.ts'],
    ['server/accounts/probe.ts', '../photos/objects.ts'],
    ['server/search/probe.ts', '../map/clusters.ts'],
    ['server/map/probe.ts', '../search/params.ts'],
    ['server/moderation/probe.ts', '../accounts/users.ts'],
    ['server/live/probe.ts', '../photos/urls.ts'],
  ])('refuse %s importing %s, another domain’s internals', async (file, from) => {
    expect(await layeringErrors(file, from)).toEqual([
      expect.stringContaining('only through its declared interface, server/<name>/index.ts'),
    ]);
  });

  it.each([
    ['server/catalogue/probe.ts', '../photos/index.ts'],
    ['server/map/probe.ts', '../search/index.ts'],
    ['server/photos/probe.ts', '../accounts/index.ts'],
    ['server/search/probe.ts', '../geo/box.ts'],
  ])('let %s import %s, a declared interface or infrastructure', async (file, from) => {
    expect(await layeringErrors(file, from)).toEqual([]);
  });
});
