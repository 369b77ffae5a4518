"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotesTools = void 0;
const core_1 = require("@toolwright/core");
const notes_dto_1 = require("./notes.dto");
const NOTES = [
    { id: 1, text: 'Pack an umbrella for Paris', tags: ['travel', 'weather'] },
    { id: 2, text: 'Tokyo trip: check the forecast', tags: ['travel', 'weather', 'japan'] },
    { id: 3, text: 'Buy a forecast subscription', tags: ['shopping'] },
];
class NotesTools {
    searchNotes(input) {
        const words = input.query.toLowerCase().split(/\s+/);
        return NOTES.filter((n) => input.filters.tags.every((t) => n.tags.includes(t)))
            .map((n) => ({ ...n, score: words.filter((w) => n.text.toLowerCase().includes(w)).length / words.length }))
            .filter((n) => n.score > 0 && n.score >= (input.filters.minScore ?? 0))
            .slice(0, input.limit ?? 10);
    }
}
exports.NotesTools = NotesTools;
__decorate([
    (0, core_1.Tool)({
        description: 'Search the user\'s notes by text, filtered by tags. Returns matching notes with a relevance score.',
        annotations: { readOnlyHint: true, openWorldHint: false },
    }),
    __param(0, (0, core_1.Args)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [notes_dto_1.SearchNotesInput]),
    __metadata("design:returntype", void 0)
], NotesTools.prototype, "searchNotes", null);
