// The layer rule, written once (docs/architecture.md draws the same floors).
// From the ground up; an import may go down or sideways within a floor, never up, and never in a
// circle. `npm run lint:layers` (in CI's lint step) fails on either.
const FLOORS = [
  ['lib', 'finance', 'store'],
  ['engine'],
  ['domain'],
  ['webhooks', 'inspector'],
  ['http'],
  ['api', 'cluster', 'dashboard', 'tenancy'],
  // The composition roots: the CLI, the in-process test API and the files at the top of src/.
  ['cli', 'testing', '<root>'],
];

const pathOf = (room) => (room === '<root>' ? '^src/[^/]+$' : `^src/${room}/`);

const upward = FLOORS.flatMap((rooms, floor) => {
  const above = FLOORS.slice(floor + 1).flat();
  if (above.length === 0) return [];
  return [
    {
      name: `floor-${floor}-imports-up`,
      comment: `${rooms.join(', ')} may import only from their own floor or below (see docs/architecture.md)`,
      severity: 'error',
      from: { path: rooms.map(pathOf), pathNot: '\\.test\\.tsx?$' },
      to: { path: above.map(pathOf) },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import circles make a room impossible to read on its own; share types through a third file',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
