// Types of the Prometheus text-format parser the metrics test uses (the package ships none).
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses a whole exposition; throws on any line that is not valid text format. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
