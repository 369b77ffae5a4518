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
Object.defineProperty(exports, "__esModule", { value: true });
exports.SearchNotesInput = exports.NoteFilters = void 0;
const dto_1 = require("@toolwright/core/dto");
class NoteFilters {
    tags;
    minScore;
}
exports.NoteFilters = NoteFilters;
__decorate([
    (0, dto_1.Property)({ description: 'Only notes carrying all of these tags.' }),
    (0, dto_1.IsArray)(),
    (0, dto_1.IsString)({ each: true }),
    (0, dto_1.ArrayMaxSize)(10),
    __metadata("design:type", Array)
], NoteFilters.prototype, "tags", void 0);
__decorate([
    (0, dto_1.Property)({ description: 'Minimum relevance score, 0 to 1.' }),
    (0, dto_1.IsOptional)(),
    (0, dto_1.IsNumber)(),
    (0, dto_1.Min)(0),
    (0, dto_1.Max)(1),
    __metadata("design:type", Number)
], NoteFilters.prototype, "minScore", void 0);
/** The whole input of search_notes. The decorators are class-validator's, loaded one by one through @toolwright/core/dto. */
class SearchNotesInput {
    query;
    filters;
    limit;
}
exports.SearchNotesInput = SearchNotesInput;
__decorate([
    (0, dto_1.Property)({ description: 'Words to look for in the note text.' }),
    (0, dto_1.IsString)(),
    (0, dto_1.MinLength)(1),
    __metadata("design:type", String)
], SearchNotesInput.prototype, "query", void 0);
__decorate([
    (0, dto_1.Property)({ description: 'Narrow the search.' }),
    (0, dto_1.ValidateNested)(),
    (0, dto_1.Type)(() => NoteFilters),
    __metadata("design:type", NoteFilters)
], SearchNotesInput.prototype, "filters", void 0);
__decorate([
    (0, dto_1.Property)({ description: 'Most results to return.', default: 10 }),
    (0, dto_1.IsOptional)(),
    (0, dto_1.IsInt)(),
    (0, dto_1.Min)(1),
    (0, dto_1.Max)(50),
    __metadata("design:type", Number)
], SearchNotesInput.prototype, "limit", void 0);
