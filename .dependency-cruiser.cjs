// The layer rule, written once (docs/architecture.md draws the same floors).
// From the ground up; an import may go down or sideways within a floor, never up, and never in a
// circle. `npm run lint:layers` (in CI's lint step) fails on either.
// Rooms that are clients of the API: they may know the spec, the OpenAPI document and `lib/`,
// never the server's internals, so that they can judge any implementation, ours included.
const CLIENT_ROOMS = ['conformance', 'proxy', 'drift'];
const SERVER_ROOMS = ['finance', 'store', 'engine', 'domain', 'webhooks', 'inspector', 'http', 'api', 'cluster', 'dashboard', 'testing', 'cli', '<root>'];

const FLOORS = [
  ['lib', 'finance', 'store'],
  ['engine'],
  ['domain'],
  ['webhooks', 'inspector'],
  ['http'],
  ['api', 'cluster', 'dashboard', 'tenancy'],
  // The composition roots: the CLI, the in-process test API and the files at the top of src/;
  // beside them the clients of the API (the conformance kit, the validating proxy and what they
  // share), which the server's floors never import.
  ['cli', 'testing', '<root>', ...CLIENT_ROOMS],
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
    {
      name: 'client-rooms-know-no-server',
      comment: `${CLIENT_ROOMS.join(', ')} are clients of the API: they import only each other and lib/ (see DESIGN.md, Wave 4)`,
      severity: 'error',
      from: { path: CLIENT_ROOMS.map(pathOf), pathNot: '\\.test\\.tsx?$' },
      to: { path: SERVER_ROOMS.map(pathOf) },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
