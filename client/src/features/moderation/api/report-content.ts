import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { NewReport, Report, ReportResponse } from '../../../../../contract/moderation.ts';
import { api } from '../../../lib/api.ts';

/** Files a report on a cat, bodega, review or photo. */
export async function reportContent(report: NewReport): Promise<Report> {
  const body = await api.post<ReportResponse>('/api/reports', report);
  return body.report;
}

/** Files a report. No cached read changes: reports are the moderators' to see (their queue reads them). */
export const reportContentMutation = mutationOptions({ mutationFn: reportContent });

export function useReportContentMutation() {
  return useMutation(reportContentMutation);
}
