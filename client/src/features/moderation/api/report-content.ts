import type { NewReport, Report } from '../../../../../contract/moderation.ts';
import { api } from '../../../lib/api.ts';

/** Files a report on a cat, bodega, review or photo. */
export async function reportContent(report: NewReport): Promise<Report> {
  const body = await api.post<{ report: Report }>('/api/reports', report);
  return body.report;
}
