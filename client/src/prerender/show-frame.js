// Runs right after #root is parsed, before the app's code (a classic script: the page allows no
// inline ones). For a visitor with no stored session token, copies into #root the prerendered
// screen (a <template> after #root) of the route the hash router will match, so the page paints
// before React has started; React's first commit then replaces it with the same markup. A visitor
// with a token gets the session check's full-page spinner from the app, as without prerendering.
/* global document, location */
(function () {
  var root = document.getElementById('root');
  var templates = document.querySelectorAll('template[data-prerendered-route]');
  // As the router reads a hash location: the path before any '?' or '#', with a leading slash;
  // routes match regardless of case and of a trailing slash.
  var route = location.hash.slice(1).split(/[?#]/)[0];
  if (route.charAt(0) !== '/') route = '/' + route;
  route = route.toLowerCase().replace(/\/+$/, '') || '/';
  var token = null;
  try {
    token = localStorage.getItem('token');
  } catch {
    // Storage blocked: the app reads that as no token too.
  }
  for (var i = 0; i < templates.length; i++) {
    var template = templates[i];
    var fits = token === null && template.getAttribute('data-prerendered-route') === route;
    if (fits && root && !root.firstChild) root.appendChild(document.importNode(template.content, true));
    template.remove();
  }
})();
