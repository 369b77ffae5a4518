/** @type {import('next').NextConfig} */
export default {
  // Loaded from node_modules at run time, not bundled: one copy of each, with the decorator
  // metadata the tool classes register in them.
  serverExternalPackages: ['@toolwright/core', '@toolwright/server', '@toolwright/next', 'class-validator', 'class-transformer', 'reflect-metadata', 'typedi'],
};
