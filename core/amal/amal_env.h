// What an AMAL bank's environment string (the AMOS lines the AMAL editor runs before testing a program)
// says about the objects the channels drive:
//   Sprite n,x,y,i / Bob n,x,y,i      object n at (x, y) showing image i (AMOS image numbers, 1-based)
//   Channel to Sprite c,n / Channel to Bob c,n   channel c drives that object
// Lines are separated by '~', statements by ':'; keywords are case-insensitive; anything else (screens,
// palettes, loads, comments after ') is ignored. Only decimal literals are understood: an object whose
// position or image is an expression is left out rather than guessed.
#pragma once

#include <map>
#include <string>

namespace rs::amal {

struct EnvObject {
    bool bob = false; // Bob, else Sprite
    int number = 0;   // sprite/bob number
    int x = 0, y = 0;
    int image = 0; // AMOS image number (images[image - 1]); 0 = not given
};

// Channel number -> the object its `Channel to` line names, with where that object's last Sprite/Bob line
// put it (lines after the Channel to line count too: the environment runs before the program).
std::map<int, EnvObject> environmentObjects(const std::string& environment);

} // namespace rs::amal
