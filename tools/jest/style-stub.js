// CSS imported by a console component: jsdom does not lay out, so its rules are not needed.
module.exports = {};
