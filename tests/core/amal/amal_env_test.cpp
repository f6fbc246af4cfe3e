// The environment string's objects: Sprite/Bob placements and the channels driving them.
#include "amal/amal_env.h"

#include <catch2/catch.hpp>

using namespace rs::amal;

TEST_CASE("amal environment: channels get the sprite or bob their Channel to line names") {
    // The shape of a real environment (Screen lines, comments, Sprite Off, lower and mixed case).
    const std::string env = "Bob off : Sprite Off : Rainbow Del~Screen 0~screen open 0,320,256,32,lowres~cls 0~hide~"
                            "'get sprite palette~sprite 8,200,100,1~Sprite 9,0,00,6~channel to sprite 0,8~"
                            "Channel To Sprite 1,9~bob 3,-12,40,21~channel to bob 2,3~channel to sprite 5,30";
    const auto objects = environmentObjects(env);
    REQUIRE(objects.size() == 4);
    CHECK_FALSE(objects.at(0).bob);
    CHECK(objects.at(0).number == 8);
    CHECK(objects.at(0).x == 200);
    CHECK(objects.at(0).y == 100);
    CHECK(objects.at(0).image == 1);
    CHECK(objects.at(1).image == 6);
    CHECK(objects.at(1).x == 0);
    CHECK(objects.at(2).bob);
    CHECK(objects.at(2).x == -12);
    CHECK(objects.at(2).image == 21);
    // A channel whose object was never placed: known object, no position or image.
    CHECK(objects.at(5).number == 30);
    CHECK(objects.at(5).image == 0);
}

TEST_CASE("amal environment: expressions and malformed lines are left out, never guessed") {
    CHECK(environmentObjects("").empty());
    CHECK(environmentObjects("sprite 1,X,100,1~channel to sprite 0,1").at(0).image == 0); // placement ignored
    CHECK(environmentObjects("channel to sprite 0~channel to sprite a,1").empty());
    CHECK(environmentObjects("sprite 1,2,3,99999999~channel to sprite 0,1").at(0).image == 0);
    CHECK(environmentObjects("spritely 1,2,3,4~channel to sprite 0,1").at(0).image == 0);
    CHECK(environmentObjects(std::string(1000, '~') + std::string(1000, ':')).empty());
}
