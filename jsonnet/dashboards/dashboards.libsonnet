// Dashboards, one file each; keyed by output file name.
{
  grafanaDashboards+:: {},
}
