import { aggregate, type AggregateStats } from "../../repos/aggregates";
import { findCoverage, type CoverageDoc } from "../../repos/coverage";
import { DATAPOINTS, type Datapoint, type Unit } from "./datapoints";
import { evaluateByQueries, hoursAggregation, type IncidentValues } from "./evaluate";

/**
 * The ESRS S1-14 report of one company and UTC year: the one calculation behind both
 * GET /v1/esrs-s1 and the app's esrsS1Report callable, so the two always agree. Reading
 * (computeEsrsReport) is kept apart from turning the inputs into rows (buildRows), which the
 * unit tests run without Firestore.
 */
export interface EsrsRow {
  datapoint_id: string;
  esrs_paragraph: string;
  name: string;
  /** A number (a text for S1-14_11), or null with the reason in `note`. */
  value: number | string | null;
  unit: Unit;
  note: string;
}

export interface EsrsInputs {
  incidents: IncidentValues;
  /** Hours worked in the year, all sources; 0 when none are recorded. */
  hours: number;
  coverage: CoverageDoc | null;
}

export interface EsrsReport {
  companyId: string;
  year: number;
  generatedAt: Date;
  datapoints: EsrsRow[];
}

/** Percentages and rates are published to two decimals; JSON and CSV carry the same rounded number. */
const round2 = (x: number) => Math.round(x * 100) / 100;

interface Outcome {
  value: number | string | null;
  /** Why the value is null. */
  reason?: string;
}

const HEADCOUNT_LABEL = { coveredHeadcount: "covered", auditedHeadcount: "audited or certified" } as const;

function incidentValue(values: IncidentValues, id: string): number {
  const value = values[id];
  if (value === undefined) throw new Error(`ESRS datapoint ${id} was not evaluated`);
  return value;
}

function outcomeOf(d: Datapoint, year: number, { incidents, hours, coverage }: EsrsInputs): Outcome {
  const noCoverage = { value: null, reason: `no health and safety coverage data is recorded for ${year}.` };
  switch (d.source) {
    case "incidents":
      return { value: incidentValue(incidents, d.id) };
    case "rate":
      // Never a division by zero: no hours is "not computable", not 0 or infinity.
      if (!(hours > 0)) return { value: null, reason: `no worked hours are recorded for ${year}, so the rate cannot be computed.` };
      return { value: round2((incidentValue(incidents, d.numerator) / hours) * d.per) };
    case "coverage": {
      if (!coverage) return noCoverage;
      if (coverage.headcount === null || coverage.headcount <= 0) return { value: null, reason: `the own-workforce headcount for ${year} is missing or zero.` };
      const part = coverage[d.field];
      if (part === null) return { value: null, reason: `the ${HEADCOUNT_LABEL[d.field]} headcount for ${year} is not recorded.` };
      return { value: round2((part / coverage.headcount) * 100) };
    }
    case "standards": {
      if (!coverage) return noCoverage;
      const standards = [...new Set(coverage.certificationStandards.map((s) => s.trim()).filter(Boolean))];
      if (!standards.length) return { value: null, reason: `no certification standards are recorded for ${year}.` };
      return { value: standards.join(", ") };
    }
  }
}

/** The rows, in datapoint order: pure, from already-read inputs. */
export function buildRows(year: number, inputs: EsrsInputs): EsrsRow[] {
  return DATAPOINTS.map((d) => {
    const { value, reason } = outcomeOf(d, year, inputs);
    return {
      datapoint_id: d.id,
      esrs_paragraph: d.paragraph,
      name: d.name,
      value,
      unit: d.unit,
      note: reason ? `${d.methodology} Not reported: ${reason}` : d.methodology,
    };
  });
}

/**
 * Reads the inputs (one document, one hours sum, a fixed set of incident aggregations) and
 * builds the rows. `stats` counts the work, for the benchmark and the cost test.
 */
export async function computeEsrsReport(companyId: string, year: number, stats: AggregateStats = { queries: 0, documentsRead: 0 }, now = new Date()): Promise<EsrsReport> {
  const [coverage, hours, incidents] = await Promise.all([
    findCoverage(companyId, year).then((doc) => {
      stats.documentsRead++;
      if (stats.billedReads !== undefined) stats.billedReads++;
      return doc;
    }),
    aggregate(companyId, hoursAggregation(year), stats),
    evaluateByQueries(companyId, year, stats),
  ]);
  return { companyId, year, generatedAt: now, datapoints: buildRows(year, { incidents, hours, coverage }) };
}
