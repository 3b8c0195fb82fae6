// What the other features use of moderation: 'Report' on what a page shows, and the banner above
// hidden content.
export { HiddenBanner } from './components/HiddenBanner.tsx';
export { PhotoReportButton, ReportButton, ReviewReportButton } from './components/ReportButton.tsx';
