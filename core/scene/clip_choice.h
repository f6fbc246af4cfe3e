// Which clip a model starts on: the games' idle clip, named by each game's convention.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rs {

// True when `name` (a clip name or a clip file name) names an idle clip. The name is split into tokens at every
// character that is not a letter or digit, and a token (case-insensitive) must be
//   IDLE + digits      Alamo  EI_STORMTROOPER_IDLE_00, W_Grenade_Idle_00; B&W2 library animations; SAGE _idle
//   IDL + [letter] + digits   SAGE (BFME, Generals)  HUCHARI_SKL.HUCHARI_IDL, GUARAGORN_IDLA, KUMORG_IDLD2
// so neither words that merely contain the letters (IDLER, MIDLAND, ATTACKIDLE) nor transitions (IDLTOATKA) match.
bool isIdleClipName(std::string_view name);

// Index into `names` of the clip to start on: the first whose `fits` is true and whose name isIdleClipName,
// else the first whose `fits` is true, else -1. `fits` has one entry per name.
int pickInitialClip(const std::vector<std::string>& names, const std::vector<bool>& fits);

} // namespace rs
