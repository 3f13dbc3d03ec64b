// kubernetes-models and its dependencies ship ES modules only ("import" entries); jest asks for
// "require" ones. These resolve through "import" and swc turns them into CommonJS.
const esmOnly = /^(kubernetes-models|@kubernetes-models\/[^/]+|is-cidr|cidr-regex)(\/|$)/;

module.exports = (request, options) =>
  options.defaultResolver(request, esmOnly.test(request) ? { ...options, conditions: ['import', 'default'] } : options);
