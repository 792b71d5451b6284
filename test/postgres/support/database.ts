import pg from 'pg';
import { inject } from 'vitest';

let counter = 0;

/** Creates an empty database for one test and returns its URL. */
export async function freshDatabase(label: string): Promise<string> {
  const base = inject('postgresUrl');
  counter += 1;
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${counter}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return `${base}/${name}`;
}

/** Runs one query against a database (to look at what the sandbox wrote). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
