/** The shape of one row of the error catalog: HTTP status, problem title and help text. */
export interface ErrorCatalogEntry {
  status: number;
  title: string;
  help: string;
}
